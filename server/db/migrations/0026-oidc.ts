import type { Kysely } from 'kysely';

/**
 * Single sign-on with OpenID Connect providers.
 *
 * - `user_identities`: an account's link to a provider's account, by the provider's id (from
 *   OIDC_PROVIDERS) and the subject (`sub`) it names the person by; one subject links to one
 *   account. `email` is what the provider said when it was linked (shown on the account page).
 * - `oidc_flows`: a sign-in or link under way at a provider, kept in the database so that any
 *   instance may receive the provider's answer: the SHA-256 of its `state`, the SHA-256 of the
 *   browser cookie it is bound to, the `nonce` and PKCE `code_verifier`, the purpose
 *   (`sign-in` or `link`, with the account for a link), where to go afterwards, when it expires
 *   and when it was used (a second answer with the same state is refused as a replay).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addPrimaryKeyConstraint('user_identities_pkey', ['provider_id', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_id_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('oidc_flows')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_flows_expires_at_idx').on('oidc_flows').column('expires_at').execute();
}
