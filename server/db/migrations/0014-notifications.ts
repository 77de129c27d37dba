import { sql, type Kysely } from 'kysely';

/**
 * Notifications: the in-app inbox and web push.
 *
 * - `notifications`: one row per person told about something (types in
 *   shared/schemas/notifications.ts). What it shows is stored with it (`text`, the task's title,
 *   the board's name, who did it), so the inbox reads one table and a notification still reads
 *   right after the task is renamed or deleted. `read_at` null: unread. Paged newest first by
 *   (`created_at`, `id`); the unread count is one read of the partial index on unread rows.
 *   Rows go with their account.
 * - `notification_mutes`: a row turns one type off on one channel (`app`: the inbox; `push`:
 *   this person's devices) for one account. No row: on. Mail has its own settings
 *   (`mail_settings`), which outlive accounts.
 * - `push_subscriptions`: a browser's Push API subscription (RFC 8030 endpoint and the RFC 8291
 *   keys). An endpoint belongs to one browser profile, so it is unique: subscribing it again
 *   (another account signed in on the same browser) moves it.
 * - `outbox.push_subscription_id`: an outbox row of kind `push` is one notification pushed to one
 *   subscription (its payload, JSON `{title, body, url}`, in `text_body`). Deleting the
 *   subscription (a 404 or 410 from its push service, the person turning push off, the account's
 *   deletion) leaves its pushes not yet delivered behind: the worker drops a push whose
 *   subscription is gone. (No foreign key: SQLite cannot drop a column that has one.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('task_title', 'text')
    .addColumn('board_id', 'text')
    .addColumn('board_name', 'text')
    .addColumn('by_name', 'text')
    .addColumn('by_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('notifications_user_unread_idx')
    .on('notifications')
    .columns(['user_id', 'created_at desc', 'id desc'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  // Retention: rows older than 90 days go, oldest first, across all accounts.
  await db.schema.createIndex('notifications_created_idx').on('notifications').column('created_at').execute();

  await db.schema
    .createTable('notification_mutes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_mutes_pkey', ['user_id', 'type', 'channel'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();

  await db.schema
    .alterTable('outbox')
    .addColumn('push_subscription_id', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_push_subscription_idx')
    .on('outbox')
    .column('push_subscription_id')
    .where(sql.ref('push_subscription_id'), 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_push_subscription_idx').ifExists().execute();
  await db.schema.alterTable('outbox').dropColumn('push_subscription_id').execute();
  await db.schema.dropTable('push_subscriptions').ifExists().execute();
  await db.schema.dropTable('notification_mutes').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
}
