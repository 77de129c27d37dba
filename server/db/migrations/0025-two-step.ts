import type { Kysely } from 'kysely';

/**
 * The second step of sign-in (a TOTP authenticator app, RFC 6238).
 *
 * - `totp_factors`: one row per account that set up an authenticator: the secret, encrypted
 *   (`secret_box`: AES-256-GCM under a key derived from the session secret), `confirmed_at`
 *   null until a right code proved the app has it (only then does sign-in ask for a code), and
 *   `last_step`: the 30-second time step of the last code accepted, so no code is accepted twice.
 * - `recovery_codes`: the SHA-256 of each one-time recovery code; `used_at` once it was used.
 * - `second_step_tokens`: a password sign-in that still needs its code: the SHA-256 of the
 *   token the client holds, the account, when it expires and how many wrong codes it had.
 *
 * All three go with their account.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_box', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_step', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user_id_code_hash_idx').on('recovery_codes').columns(['user_id', 'code_hash']).execute();

  await db.schema
    .createTable('second_step_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('second_step_tokens_user_id_idx').on('second_step_tokens').column('user_id').execute();
  await db.schema.createIndex('second_step_tokens_expires_at_idx').on('second_step_tokens').column('expires_at').execute();
}
