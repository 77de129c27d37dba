/** SQLite result codes by number, for node:sqlite's `errcode` (extended codes where we tell them apart). */
const SQLITE_CODES = new Map<number, string>([
  [5, 'SQLITE_BUSY'],
  [6, 'SQLITE_LOCKED'],
  [10, 'SQLITE_IOERR'],
  [13, 'SQLITE_FULL'],
  [14, 'SQLITE_CANTOPEN'],
  [19, 'SQLITE_CONSTRAINT'],
  [1555, 'SQLITE_CONSTRAINT_PRIMARYKEY'],
  [787, 'SQLITE_CONSTRAINT_FOREIGNKEY'],
  [2067, 'SQLITE_CONSTRAINT_UNIQUE'],
]);

/**
 * The error's code: PostgreSQL's SQLSTATE, a Node socket code, or the SQLite result code's name
 * (node:sqlite reports `code: 'ERR_SQLITE_ERROR'` and the number in `errcode`).
 */
function codeOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('errcode' in error && typeof error.errcode === 'number') {
    return SQLITE_CODES.get(error.errcode) ?? SQLITE_CODES.get(error.errcode & 0xff) ?? `SQLITE_${error.errcode}`;
  }
  return 'code' in error ? error.code : undefined;
}

/** True for a UNIQUE constraint violation on either database (a lost race on an insert). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a FOREIGN KEY violation on either database (a row referred to was deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNAVAILABLE_SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Cannot use a pool after calling end',
  'The database connection is not open',
  'database is not open',
  'statement has been finalized',
  'driver has already been destroyed',
];

/**
 * True when the database cannot be reached or is shutting down, rather than refusing the query:
 * the answer is then 503 ("try again shortly"), not 500. PostgreSQL SQLSTATE classes 08
 * (connection exception), 53 (insufficient resources), 57P (operator intervention) and 55000
 * (e.g. "database is not accepting connections"); driver socket errors; SQLite busy or I/O.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string') {
    if (code.startsWith('08') || code.startsWith('53') || code.startsWith('57P') || code === '55000') return true;
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
    if ([...UNAVAILABLE_SQLITE_CODES].some((prefix) => code.startsWith(prefix))) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}
