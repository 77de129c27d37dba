import { CompiledQuery, type DatabaseConnection } from 'kysely';

/** Upper bound of cached statements; our SQL texts are a small fixed set, this only guards mistakes. */
export const STATEMENT_CACHE_MAX = 500;

/** Runs the begin, commit and rollback of a transaction as plain statements on a connection. */
export const run = (connection: DatabaseConnection, sqlText: string) => connection.executeQuery(CompiledQuery.raw(sqlText));

/**
 * What each driver keeps per SQL text (pg statement names, node:sqlite statements), found without
 * hashing the text. A Map keyed by the text hashes every character of a string it has not hashed
 * before, and many texts arrive as new strings on every request (a query built by Kysely's query
 * builder, a write's statement put together from its parts): for the 8.8 KB of a task create on
 * PostgreSQL that was about 20 µs of CPU per write, against about 1 µs to compare it with the
 * stored text of the same length (docs/performance.md). Texts are grouped by length, and those of
 * one length compared with `===`, which stops at the first differing character.
 */
export class BySqlText<V> {
  readonly #byLength = new Map<number, { text: string; value: V }[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(text: string): V | undefined {
    const sameLength = this.#byLength.get(text.length);
    if (sameLength === undefined) return undefined;
    for (const entry of sameLength) if (entry.text === text) return entry.value;
    return undefined;
  }

  /** Adds `text` (which must not be there yet). */
  set(text: string, value: V): void {
    const sameLength = this.#byLength.get(text.length);
    if (sameLength === undefined) this.#byLength.set(text.length, [{ text, value }]);
    else sameLength.push({ text, value });
    this.#size += 1;
  }

  clear(): void {
    this.#byLength.clear();
    this.#size = 0;
  }
}
