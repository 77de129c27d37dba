import type { Kysely } from 'kysely';

/**
 * Instance administrators.
 *
 * - `users.admin_since`: when `npm run admin -- users:promote` made the account an instance
 *   admin (null: not promoted; ADMIN_EMAILS makes admins too, without a row change).
 * - `users.deactivated_at`: when an admin deactivated the account (null: active). A deactivated
 *   account keeps every row; it cannot sign in and its API tokens are refused.
 * - `users.last_sign_in_at`: the last sign-in that started a session (sessions are deleted on
 *   logout, so they alone cannot say when someone was last seen).
 * - `instance_invitations`: addresses an admin invited to register (they count for
 *   REGISTRATION=invite); the row goes when the address registers.
 * - `admin_actions`: the audit log of what admins did. Actor and subject are kept as addresses
 *   (and the actor's id, without a foreign key), so the log outlives deleted accounts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('admin_since', 'text').execute();
  await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();

  await db.schema
    .createTable('instance_invitations')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('invited_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('admin_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_email', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('admin_actions_at_id_idx').on('admin_actions').columns(['at', 'id']).execute();
}
