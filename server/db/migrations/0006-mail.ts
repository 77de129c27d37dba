import { sql, type Kysely } from 'kysely';

/**
 * Mail a team board sends:
 * - `outbox`: one row per mail, written in the transaction of the change that causes it and
 *   delivered after commit by a worker in every instance (server/mail/outbox-worker.ts). A row is
 *   claimed by setting `locked_by` and a lease (`locked_until`); a claimer that dies simply lets
 *   the lease run out. `dedupe_key` (unique where set) makes "at most one such mail" a database
 *   rule, e.g. one reminder per task, deadline and recipient.
 * - `mail_settings`: per address, which optional mails it wants (no row: all of them).
 * - `tasks.next_reminder_at`: when the task's next reminder is due (deadline − 24 h, then the
 *   deadline), null once both went out. The reminder scan reads a partial index holding only
 *   open tasks that still have a reminder ahead, so it touches just the rows that are due.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The worker's claim: pending rows in due order; sent and failed rows are not in the index.
  await db.schema
    .createIndex('outbox_pending_run_at')
    .on('outbox')
    .column('run_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('outbox_dedupe_key')
    .on('outbox')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();

  await db.schema
    .createTable('mail_settings')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('notify_assigned', 'integer', (c) => c.notNull())
    .addColumn('notify_reminders', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('tasks').addColumn('next_reminder_at', 'text').execute();
  await db.schema
    .createIndex('tasks_open_next_reminder')
    .on('tasks')
    .column('next_reminder_at')
    .where(sql<boolean>`status = 'todo' and next_reminder_at is not null`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tasks_open_next_reminder').ifExists().execute();
  await db.schema.alterTable('tasks').dropColumn('next_reminder_at').execute();
  await db.schema.dropTable('mail_settings').ifExists().execute();
  await db.schema.dropTable('outbox').ifExists().execute();
}
