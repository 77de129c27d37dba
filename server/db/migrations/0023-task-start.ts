import type { Kysely } from 'kysely';

/**
 * `tasks.start_at`: when the work on a task starts (ISO 8601 UTC text, like `deadline`), null
 * when unset. Whenever a task has both, the start is not after the deadline; the API checks it
 * on every write that sets either (a rule over two values a change may set one at a time, so it
 * is not a table constraint: existing rows have no start and need no check).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('start_at', 'text').execute();
}
