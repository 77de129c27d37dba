import type { Kysely } from 'kysely';

/**
 * `event_stream_leases.session_token_hash`: the session (its `sessions.token_hash`) a stream
 * was opened with, so every instance can find its streams whose session has ended or expired
 * with one query, and end them. Rows written before this column existed get '' (no session):
 * leases live at most 90 s, and such a row's stream is ended by the first check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_stream_leases').addColumn('session_token_hash', 'text', (c) => c.notNull().defaultTo('')).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_stream_leases').dropColumn('session_token_hash').execute();
}
