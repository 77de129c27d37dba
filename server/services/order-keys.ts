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

/** A key strictly between `before` and `after` (null: the start or the end). */
export function keyBetween(before: string | null, after: string | null): string {
  return generateJitteredKeyBetween(before, after);
}

/** `n` ascending keys strictly between `before` and `after`. */
export function keysBetween(before: string | null, after: string | null, n: number): string[] {
  if (n === 0) return [];
  return generateNJitteredKeysBetween(before, after, n);
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
