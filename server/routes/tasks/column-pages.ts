import type { TaskSort } from '#shared/constants.ts';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import type { ListTasksQuery, Task } from '#shared/schemas/tasks.ts';
import { AppError, validationFailed } from '../../errors.ts';
import type { ColumnListOptions } from '../../repositories/column-list-queries.ts';
import type { TaskFilter } from '../../repositories/task-list-queries.ts';
import type { Viewer } from '../../repositories/task-visibility.ts';
import type { TasksRepository } from '../../repositories/tasks-repository.ts';
import type { Executor } from '../../db/prepared.ts';
import { existingId } from '../../services/not-found.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { text } from '#shared/i18n.ts';

/** A sort=position cursor: `k|<key>` (keys are base 62, at most 64 characters). */
const KEY_CURSOR_RE = /^k\|([0-9A-Za-z]{1,64})$/;
const invalidCursor = () => validationFailed([{ field: 'cursor', message: text('The cursor is invalid; start again from the first page.') }]);
const columnNotFound = () => new AppError(404, 'NOT_FOUND', COLUMN_MESSAGES.columnNotFound);

/**
 * `GET /api/tasks?column=<id>` (with any filter and sort, `sort=position` for the column's own
 * order): one page of that column. The column's board must be one the viewer is an active member
 * of (404 otherwise, as for a missing column); `board=`, when given, must be its board.
 */
export async function columnPage(
  repo: TasksRepository,
  db: Executor,
  viewer: Viewer,
  query: ListTasksQuery,
  filter: (board: string) => Promise<TaskFilter>,
  limit: number,
): Promise<{ page: Task[]; nextCursor: string | null }> {
  const sort = query.sort ?? 'newest';
  if (query.column === undefined) throw validationFailed([{ field: 'sort', message: text('sort=position needs column=.') }]);
  const column = await db.selectFrom('boardColumns').select('boardId').where('id', '=', existingId(query.column, columnNotFound)).executeTakeFirst();
  if (column === undefined || (query.board !== undefined && query.board !== column.boardId)) throw columnNotFound();
  const { view, status, priority, label, q } = await filter(column.boardId);
  let after: ColumnListOptions['after'];
  if (query.cursor !== undefined && query.cursor !== '') {
    if (sort === 'position') {
      const match = KEY_CURSOR_RE.exec(Buffer.from(query.cursor, 'base64url').toString('utf8'));
      if (match?.[1] === undefined) throw invalidCursor();
      after = { position: match[1] };
    } else {
      after = decodeCursor(sort, query.cursor);
    }
  }
  const options: ColumnListOptions = { column: query.column, sort, view, status, priority, label, q, after, limit: limit + 1 };
  const rows = await repo.listColumn(viewer, options);
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  let nextCursor: string | null = null;
  if (rows.length > limit && last !== undefined) {
    nextCursor =
      sort === 'position'
        ? Buffer.from(`k|${last.position}`, 'utf8').toString('base64url')
        : encodeCursor(sort satisfies TaskSort, { createdAt: last.createdAt, id: last._id, deadline: last.deadline, priority: last.priority });
  }
  return { page, nextCursor };
}
