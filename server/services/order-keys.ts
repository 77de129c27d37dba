import { generateJitteredKeyBetween, generateNJitteredKeysBetween } from 'fractional-indexing-jittered';

/**
 * Order keys of tasks in a column and of columns on a board: fractional indexes from a
 * maintained library (base 62, digits in ASCII order), compared byte-wise on both databases
 * (`COLLATE "C"` on PostgreSQL). Every key is drawn with jitter, so two writes placing something
 * at the same spot at the same moment almost always get different keys; the unique index on
 * (column_id, position) turns the rare tie into a retry (decision 123).
 */

/** A key longer than this is not stored: the column is re-spaced instead. */
export const KEY_MAX = 64;

/**
 * No key can be made next to a stored key: the library cannot read it (a key written by hand or
 * by an old import) or the two are out of order. Stored data is never a reason to refuse a write:
 * the writer re-spaces `columnId` (every task of it gets a fresh key, in its order) and tries again.
 */
export class UnusableKeys extends Error {
  readonly columnId: string | undefined;
  constructor(columnId: string | undefined, cause: unknown) {
    super(`No order key fits next to a stored key of column ${columnId ?? '?'}`, { cause });
    this.name = 'UnusableKeys';
    this.columnId = columnId;
  }
}

/** Runs the key library on stored neighbour keys: its refusal becomes UnusableKeys for `columnId`. */
function fromStored<T>(columnId: string | undefined, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw new UnusableKeys(columnId, error);
  }
}

/** A key strictly between `before` and `after` (null: the start or the end), stored keys of `columnId`. */
export function keyBetween(before: string | null, after: string | null, columnId?: string): string {
  return fromStored(columnId, () => generateJitteredKeyBetween(before, after));
}

/** `n` ascending keys strictly between `before` and `after`, stored keys of `columnId`. */
export function keysBetween(before: string | null, after: string | null, n: number, columnId?: string): string[] {
  if (n === 0) return [];
  return fromStored(columnId, () => generateNJitteredKeysBetween(before, after, n));
}

/**
 * `n` fresh ascending keys for a whole column, none equal to any of `taken` (the column's keys
 * before the re-spacing), so rewriting the column row by row never meets the unique index.
 */
export function respacedKeys(n: number, taken: ReadonlySet<string>): string[] {
  for (;;) {
    const keys = keysBetween(null, null, n);
    if (!keys.some((key) => taken.has(key))) return keys;
  }
}
