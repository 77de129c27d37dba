import { validationFailed } from '../../errors.ts';

/**
 * Keyset cursor: the (created_at, id) of the last task of a page, opaque to clients
 * (base64url of `createdAt|id`). The next page holds the tasks strictly before it.
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const [createdAt = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !ISO_RE.test(createdAt) || !ID_RE.test(id)) {
    throw validationFailed([{ field: 'cursor', message: 'The cursor is invalid; start again from the first page.' }]);
  }
  return { createdAt, id };
}
