import { SqliteQueryCompiler } from 'kysely';

/**
 * Every bound parameter is written `+?` instead of `?`. SQLite's planner marks a statement
 * "re-prepare when this parameter is rebound" where a bound value could change the plan: a
 * `LIMIT ?`, and (3.54) any `col = ?` term of a join or ordered query. node:sqlite clears the
 * bindings on every run, and sqlite3_clear_bindings() expires a statement with any such mark, so
 * with plain `?` those statements would be parsed and planned again on every call. The
 * unary plus is a no-op on the value (no affinity, as a bare parameter has none; still usable
 * for index lookups), but the planner does not look through it at bound values, so no mark is
 * set and a cached statement stays compiled: the plan is the one the first prepare made, as with
 * SQLite's query-planner stability guarantee. docs/performance.md has the evidence;
 * server/test/db-statements.test.ts counts re-prepares so this cannot silently come back.
 */
export class StablePlanSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}
