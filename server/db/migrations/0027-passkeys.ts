import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn discoverable credentials).
 *
 * - `passkeys`: one row per credential an account registered: its credential id (base64url, as
 *   the browser sends it back at sign-in, unique), COSE public key (base64url), the signature
 *   counter the authenticator reported last, its transports (JSON array), whether it is a
 *   multi-device credential and backed up (0/1: the same value on both databases), the name the
 *   person gave it, when it was made and last used.
 * - `webauthn_challenges`: the challenges handed out for a ceremony, so that any instance can
 *   check the answer: the challenge itself (base64url, the key), its purpose (`register` or
 *   `sign-in`), the account it was made for (registration only) and when it expires. A challenge
 *   is deleted by the statement that accepts it (single use).
 *
 * Both go with their account.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('multi_device', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user_id_idx').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expires_at_idx').on('webauthn_challenges').column('expires_at').execute();
  await db.schema.createIndex('webauthn_challenges_user_id_idx').on('webauthn_challenges').column('user_id').execute();
}
