import { PRIORITIES, type Priority, type TaskSort } from '#shared/constants.ts';
import { ID_RE } from '../../db/ids.ts';
import { validationFailed } from '../../errors.ts';
import type { SortPosition } from '../../repositories/task-order.ts';
import { text } from '#shared/i18n.ts';

/**
 * Keyset cursor: the sort key of the last task of a page, opaque to clients (base64url). The
 * next page holds the tasks strictly after it in the same order. Every order ends with
 * (created_at, id), so positions are unique:
 * - newest:   `createdAt|id`
 * - deadline: `d|<deadline or empty for none>|createdAt|id`
 * - priority: `p|<priority>|createdAt|id`
 * A cursor made for another order is refused.
 */
export type CursorPosition = SortPosition;

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const invalid = () =>
  validationFailed([{ field: 'cursor', message: text('The cursor is invalid; start again from the first page.') }]);

export function encodeCursor(sort: TaskSort, position: CursorPosition): string {
  const tail = `${position.createdAt}|${position.id}`;
  const plain =
    sort === 'deadline' ? `d|${position.deadline ?? ''}|${tail}` : sort === 'priority' ? `p|${position.priority ?? ''}|${tail}` : tail;
  return Buffer.from(plain, 'utf8').toString('base64url');
}

export function decodeCursor(sort: TaskSort, cursor: string): CursorPosition {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const expected = sort === 'newest' ? 2 : 4;
  if (parts.length !== expected) throw invalid();
  const [createdAt = '', id = ''] = parts.slice(-2);
  if (!ISO_RE.test(createdAt) || !ID_RE.test(id)) throw invalid();
  if (sort === 'deadline') {
    const [tag, deadline = ''] = parts;
    if (tag !== 'd' || (deadline !== '' && !ISO_RE.test(deadline))) throw invalid();
    return { createdAt, id, deadline: deadline === '' ? null : deadline };
  }
  if (sort === 'priority') {
    const [tag, priority = ''] = parts;
    if (tag !== 'p' || !(PRIORITIES as readonly string[]).includes(priority)) throw invalid();
    return { createdAt, id, priority: priority as Priority };
  }
  return { createdAt, id };
}
