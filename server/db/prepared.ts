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

/** How the driver runs a statement: the drivers (db/sqlite-driver.ts, db/postgres-driver.ts) read these from each run (`optionsOf`). */
export interface StatementOptions {
  /**
   * The driver returns each row as an array of the select list's values, in order, instead of
   * an object (node:sqlite's `setReturnArrays`, pg's `rowMode: 'array'`). node:sqlite's row
   * objects have a null prototype and 13 named properties; reading them back field by field
   * cost 0.8 µs a row, an array 0.05 µs (docs/performance.md). CamelCasePlugin is skipped: it
   * has no names to rename. Type such rows with `ValuesOf`.
   */
  readonly rowsAsArrays: boolean;
  /**
   * PostgreSQL plans the statement with each run's values (db/postgres-driver.ts runs it as an unnamed
   * statement), for queries whose best plan depends on them. A named statement switches to a
   * generic plan after five runs; for a text search that plan was the one for a common word
   * (read the viewer's rows in order) whatever the word, so a rare word read all of them: 37 ms
   * instead of 7 ms at 1,000,000 rows. Planning each run costs about 1 ms, small beside a search.
   */
  readonly planPerRun: boolean;
}

const DEFAULT_OPTIONS: StatementOptions = { rowsAsArrays: false, planPerRun: false };

/**
 * One run of a prepared statement: the compiled SQL with this run's parameters, and the
 * statement's options as data beside it. Kysely hands this very object to the driver's
 * connection (db/sqlite-driver.ts, db/postgres-driver.ts), which reads the options with `optionsOf`.
 */
class StatementRun<R> implements CompiledQuery<R> {
  readonly query: CompiledQuery['query'];
  readonly queryId: CompiledQuery['queryId'];
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly options: StatementOptions;

  constructor(compiled: CompiledQuery, parameters: readonly unknown[], options: StatementOptions) {
    this.query = compiled.query;
    this.queryId = compiled.queryId;
    this.sql = compiled.sql;
    this.parameters = parameters;
    this.options = options;
  }
}

/** The options of a query the driver is given: a prepared statement's own, else the defaults (Kysely's own queries). */
export function optionsOf(query: CompiledQuery): StatementOptions {
  return query instanceof StatementRun ? query.options : DEFAULT_OPTIONS;
}

/** The name a select-list entry has in the result row: `t.id` → `id`, `u.fullName as assignor` → `assignor`. */
type OutputName<S> = S extends `${string} as ${infer A}` ? A : S extends `${string}.${infer C}` ? C : S;

/**
 * A row read as an array (`rowsAsArrays`): the values of the select list `S`, in its order,
 * each typed as Kysely types it in the query's result row `Row` (`InferResult<typeof query>[number]`).
 */
export type ValuesOf<Row, S extends readonly string[]> = { readonly [K in keyof S]: Row[OutputName<S[K]> & keyof Row] };

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
 * the drivers (db/sqlite-driver.ts, db/postgres-driver.ts), a hot query is also parsed and planned once by the database. `options`: see
 * StatementOptions.
 */
export function prepare<P extends Record<string, unknown>, R>(
  query: Compilable,
  options: { rowsAsArrays?: boolean; planPerRun?: boolean } = {},
): Prepared<P, R> {
  const compiled = query.compile();
  const statement: StatementOptions = { rowsAsArrays: options.rowsAsArrays === true, planPerRun: options.planPerRun === true };
  const executorFor = statement.rowsAsArrays ? withoutPlugins : (executor: Executor) => executor;
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
      return executorFor(executor).executeQuery(new StatementRun<R>(compiled, parameters, statement));
    },
  };
}
