import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { TestApp } from './helpers.ts';

/**
 * The plan the database would run `query` with, as text: `explain query plan` on SQLite,
 * `explain` on PostgreSQL. PostgreSQL plans a seq scan for a small table, so index scans are
 * required there with `enable_seqscan` off: the plan then says whether an index CAN serve the
 * query (the planner prefers it as the table grows).
 */
export async function planOf(t: TestApp, query: CompiledQuery): Promise<string> {
  if (t.app.dbDialect === 'postgres') {
    return t.app.db.connection().execute(async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      try {
        await connection.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        const { rows } = await connection.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
        return rows.map((row) => Object.values(row).join(' ')).join('\n');
      } finally {
        await connection.executeQuery(CompiledQuery.raw('rollback'));
      }
    });
  }
  const { rows } = await t.app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  return rows.map((row) => row.detail).join('\n');
}

/**
 * The last statement `run` sent to the database through `spy` (the app's database, watched), as
 * it was sent: a compiled statement (the prepared ones) or a query built on `spy` (compiled
 * after the app's plugins, as the driver receives it).
 */
export async function lastStatement(t: TestApp, run: (spy: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery> {
  let last: CompiledQuery | undefined;
  const db = t.app.db;
  const executor = db.getExecutor();
  const watched = db.withPlugin({
    transformQuery(args) {
      last = executor.compileQuery(args.node, args.queryId);
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  });
  const spy: Kysely<DB> = new Proxy(watched, {
    get(target, prop) {
      if (prop === 'withoutPlugins') return () => spy;
      if (prop === 'executeQuery') {
        return (query: CompiledQuery) => {
          last = query;
          return target.executeQuery(query);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  await run(spy);
  if (last === undefined) throw new Error('no statement ran');
  return last;
}
