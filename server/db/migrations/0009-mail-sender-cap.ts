import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Mail that people cause to others is capped per sender (server/mail/task-mail.ts):
 * - `outbox.caused_by`: the user whose change wrote the mail (null for mail nobody caused to
 *   someone else, such as reminders and one-time codes), with an index that makes "this
 *   sender's mails of the last hour" a short range read.
 * - PostgreSQL: `mail_quota_used(sender, since)` takes a transaction-scoped advisory lock per
 *   sender and then counts the sender's mails written after `since`. It is a VOLATILE plpgsql
 *   function on purpose: in READ COMMITTED each query inside it takes a fresh snapshot, so the
 *   count sees the rows of a writer that held the lock and committed while this one waited.
 *   A count written straight into the writing statement would use the statement's snapshot,
 *   taken before the wait, and two concurrent writes could both pass as the 100th mail.
 *   SQLite has one writer at a time, so a plain count there is already exact.
 * @see https://www.postgresql.org/docs/15/xfunc-volatility.html
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('caused_by', 'text').execute();
  await db.schema
    .createIndex('outbox_caused_by_created_at')
    .on('outbox')
    .columns(['caused_by', 'created_at'])
    .where(sql.ref('caused_by'), 'is not', null)
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create function mail_quota_used(sender text, since text) returns integer
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtext('taskwise.mail.' || current_schema() || '.' || sender));
      return (select count(*) from outbox where caused_by = sender and created_at > since);
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop function if exists mail_quota_used(text, text)`.execute(db);
  }
  await db.schema.dropIndex('outbox_caused_by_created_at').ifExists().execute();
  await db.schema.alterTable('outbox').dropColumn('caused_by').execute();
}
