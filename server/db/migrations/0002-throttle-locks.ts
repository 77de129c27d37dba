import type { Kysely } from 'kysely';

/**
 * One row per throttled key (e.g. `login:<e-mail>`, `otp:<e-mail>`). Taking it at the start of a
 * transaction (an upsert, which locks the row on PostgreSQL; SQLite runs one transaction at a
 * time anyway) serializes the check-then-write of a per-address limit across concurrent
 * requests and across instances, so a burst cannot slip past a cooldown or lock-out.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttle_locks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('touched_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttle_locks').ifExists().execute();
}
