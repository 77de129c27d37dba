import type { Kysely } from 'kysely';

/**
 * Idempotent creates: `idempotency_keys` remembers the answer to a create sent with an
 * `Idempotency-Key` header, so a repeat of it (a client resending a request whose answer was
 * lost) answers the same again instead of creating a second row.
 *
 * - One row per (`user_id`, `key`): a key belongs to the person who sent it.
 * - `scope`: the call it answered (`POST /api/tasks`, `POST /api/tasks/<id>/comments`); the
 *   same key on another call is refused.
 * - `status` (integer) and `body` (the JSON answer as text, exactly as sent): written in the
 *   transaction of the row they answer for, so a row exists only with its answer.
 * - `created_at`: rows older than 24 hours no longer count; the hourly housekeeping deletes them.
 *   The index on it serves that sweep.
 * - Rows go with their account (the foreign key, and explicitly when an account is deleted, as
 *   its row stays as a nameplate).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
