import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema.ts';

/** `db` or a transaction: what a repository function runs on (fastify/demo's `trx ?? db`). */
export type Executor = Kysely<DB>;

const SLOT_PREFIX = '\u0000slot:';

/**
 * A named placeholder for `prepare()`: put it where a value goes in a Kysely builder. It is a
 * marker string at compile time and is replaced by the named argument at execution.
 */
export function slot(name: string): never {
  return `${SLOT_PREFIX}${name}` as never;
}

/**
 * `values` of a compile-once insert: each column's named slot, so `prepare()` takes the row
 * itself as its arguments (every listed column must be given, null where empty).
 */
export function slotsFor<C extends string>(columns: readonly C[]): Record<C, never> {
  return Object.fromEntries(columns.map((column) => [column, slot(column)])) as Record<C, never>;
}

export interface Prepared<P, R> {
  readonly sql: string;
  execute(executor: Executor, args: P): Promise<QueryResult<R>>;
}

/**
 * Marks a statement PostgreSQL must plan with each run's values (db/connect.ts runs it as an
 * unnamed statement), for queries whose best plan depends on them. A named statement switches
 * to a generic plan after five runs; for a text search the generic plan is the one for a common
 * word (read the viewer's rows in order) whatever the word, so a rare word would read all of
 * them: 37 ms instead of 7 ms at 1,000,000 rows. Planning each run costs about 1 ms, small beside a search.
 */
export const PLAN_PER_RUN = '/* planned per run */ ';

/**
 * Marks a statement whose rows the driver returns as arrays of the select list's values, in
 * order, instead of one object per row (db/connect.ts: node:sqlite's `setReturnArrays`, pg's
 * `rowMode: 'array'`). node:sqlite's row objects have a null prototype and 13 named properties;
 * reading them back field by field cost 0.8 µs a row, an array 0.05 µs (docs/performance.md).
 * It follows PLAN_PER_RUN when both are given.
 */
export const ROWS_AS_ARRAYS = '/* rows as arrays */ ';

/** The statement's SQL without our leading markers (what the database is asked to run). */
export function withoutMarkers(sqlText: string): string {
  let text = sqlText;
  if (text.startsWith(PLAN_PER_RUN)) text = text.slice(PLAN_PER_RUN.length);
  if (text.startsWith(ROWS_AS_ARRAYS)) text = text.slice(ROWS_AS_ARRAYS.length);
  return text;
}

/** True when the statement was prepared with `rowsAsArrays` (see ROWS_AS_ARRAYS). */
export function returnsArrays(sqlText: string): boolean {
  return sqlText.startsWith(ROWS_AS_ARRAYS) || sqlText.startsWith(`${PLAN_PER_RUN}${ROWS_AS_ARRAYS}`);
}

const pluginFree = new WeakMap<Executor, Executor>();
/** The executor without result plugins, made once per executor. */
export function withoutPlugins(executor: Executor): Executor {
  let plain = pluginFree.get(executor);
  if (plain === undefined) {
    plain = executor.withoutPlugins();
    pluginFree.set(executor, plain);
  }
  return plain;
}

/**
 * Compiles a Kysely query once and executes the same SQL text with new parameters: no query
 * building, plugin transforms or compiling per request. With the statement caches of
 * db/connect.ts, a hot query is also parsed and planned once by the database.
 */
export function prepare<P extends Record<string, unknown>, R>(
  query: Compilable,
  options: { rowsAsArrays?: boolean; planPerRun?: boolean } = {},
): Prepared<P, R> {
  const built = query.compile();
  // rowsAsArrays: each row is an array of the select list's values (see ROWS_AS_ARRAYS), and
  // CamelCasePlugin is skipped (it has no names to rename); the repository maps the rows itself
  // (used where a query returns many rows). planPerRun: PostgreSQL plans the statement for each
  // run's values instead of reusing a generic plan (see PLAN_PER_RUN).
  const markers = `${options.planPerRun === true ? PLAN_PER_RUN : ''}${options.rowsAsArrays === true ? ROWS_AS_ARRAYS : ''}`;
  const compiled = markers === '' ? built : { ...built, sql: `${markers}${built.sql}` };
  const executorFor = options.rowsAsArrays === true ? withoutPlugins : (executor: Executor) => executor;
  const slots = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(SLOT_PREFIX) ? value.slice(SLOT_PREFIX.length) : null,
  );
  const fixed = compiled.parameters;
  return {
    sql: compiled.sql,
    execute(executor, args) {
      const parameters = slots.map((name, i) => {
        if (name === null) return fixed[i];
        const value = args[name];
        if (value === undefined) throw new Error(`prepare(): no value for slot "${name}"`);
        return value;
      });
      const run = { ...compiled, parameters } as CompiledQuery<R>;
      return executorFor(executor).executeQuery(run);
    },
  };
}
