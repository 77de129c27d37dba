import type { Kysely } from 'kysely';

/**
 * One row per counted attempt of a per-IP limit (`key` is e.g. `login-ip:203.0.113.7`), so every
 * instance sharing the database counts against one limit. Rows older than the longest window
 * are removed by housekeeping.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('hit_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_key_hit_at_idx').on('rate_limit_hits').columns(['key', 'hit_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_hits').ifExists().execute();
}
