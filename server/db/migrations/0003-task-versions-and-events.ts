import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Task versions, the durable event log behind `GET /api/events`, and the stream leases that
 * cap open streams per user across instances.
 *
 * - `tasks.version`: 1 on create, +1 on every successful change (optimistic concurrency).
 * - `events`: one row per event; `id` grows in commit order (the writer serializes appends,
 *   see server/repositories/events-repository.ts), `audience` is a JSON array of the lower-cased
 *   e-mails that receive it, `payload` the event's JSON `data`. Rows older than the retention
 *   window are pruned by housekeeping. SQLite uses AUTOINCREMENT so an id is never handed out
 *   twice, even after the newest rows were pruned.
 * - `event_stream_leases`: one row per open stream, renewed while the stream lives; an
 *   instance that dies leaves rows that simply expire.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('tasks').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_created_at_idx').on('events').column('created_at').execute();

  await db.schema
    .createTable('event_stream_leases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_stream_leases_user_idx').on('event_stream_leases').columns(['user_id', 'expires_at']).execute();
  await db.schema.createIndex('event_stream_leases_instance_idx').on('event_stream_leases').column('instance_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_stream_leases').ifExists().execute();
  await db.schema.dropTable('events').ifExists().execute();
  await db.schema.alterTable('tasks').dropColumn('version').execute();
}
