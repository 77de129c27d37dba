import { sql, type Kysely } from 'kysely';

/**
 * Integrations: personal API tokens, board webhooks, the calendar feed.
 *
 * - `api_tokens`: a person's API tokens. Only the SHA-256 of the secret is stored
 *   (`secret_hash`, unique: a Bearer call finds its token by it). `access` 'read' | 'write';
 *   `expires_at` null: never. Revoking deletes the row; the account's deletion takes them along.
 * - `webhooks`: a board's webhooks. `events` is JSON text (the event types it wants); `secret`
 *   is the signing key (`whsec_…`), kept because every delivery is signed with it; `active` 0/1;
 *   `failing_since`: when its deliveries started failing without a success since (null: healthy),
 *   which pauses it after 24 h.
 * - `outbox.webhook_id` / `outbox.response_status`: an outbox row of kind `webhook` is one
 *   delivery of one event to one webhook (its body in `text_body`, its `webhook-id` in
 *   `headers`); the delivery log reads these rows, `response_status` the receiver's last answer.
 * - `calendar_feeds`: a person's secret calendar URL (`secret`, unique; a new one replaces the old
 *   at once).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_board_idx').on('webhooks').column('board_id').execute();

  await db.schema.alterTable('outbox').addColumn('webhook_id', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('response_status', 'integer').execute();
  await db.schema
    .createIndex('outbox_webhook_created_idx')
    .on('outbox')
    .columns(['webhook_id', 'created_at desc', 'id desc'])
    .where(sql.ref('webhook_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').ifExists().execute();
  await db.schema.dropIndex('outbox_webhook_created_idx').ifExists().execute();
  await db.schema.alterTable('outbox').dropColumn('response_status').execute();
  await db.schema.alterTable('outbox').dropColumn('webhook_id').execute();
  await db.schema.dropTable('webhooks').ifExists().execute();
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
