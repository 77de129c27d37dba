import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Files on tasks.
 *
 * - `attachments`: one row per file `{id, task_id, name, size, type, width, height,
 *   storage_key, thumbnail_key, uploader_id, uploader_name, uploader_email, created_at}`.
 *   `type` is what the bytes are (a media type found by reading them); `width`/`height`/
 *   `thumbnail_key` only for an image that got a thumbnail. The uploader's name and address are
 *   copied, like a comment's author, so a deleted account's files still say who added them.
 *   Deleted with their task (and so with its board).
 * - `tasks.attachment_count`, `tasks.cover_id`, `cover_width`, `cover_height`: kept by the
 *   attachment writes, so a page of tasks reads them with the task row and joins nothing.
 *   `cover_id` references its attachment (set null when it goes; a partial index serves that
 *   check, as only tasks with a cover have one).
 * - `file_sweeps`: storage keys whose files are to be deleted once `due_at` has passed. An
 *   upload writes its keys here, due in an hour, before the first byte is stored, and the
 *   transaction that writes its row deletes them: a crash between the file and its row leaves
 *   a row that comes due. A trigger adds the keys of every deleted attachment, due at once,
 *   whatever deleted it (the attachment's own delete, or its task's, board's or account's
 *   deletion cascading), in the deleting transaction.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text')
    .addColumn('uploader_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('uploader_name', 'text', (c) => c.notNull())
    .addColumn('uploader_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A task's list (newest first) and the board's total (through its tasks).
  await db.schema.createIndex('attachments_task_id_created_at_idx').on('attachments').columns(['task_id', 'created_at']).execute();

  await db.schema.alterTable('tasks').addColumn('attachment_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // A cover that is deleted is no cover: its attachment's deletion clears it (the write that deletes
  // it does so itself; the key is the guard for a cover set while its file was being deleted).
  await db.schema.alterTable('tasks').addColumn('cover_id', 'text', (c) => c.references('attachments.id').onDelete('set null')).execute();
  await db.schema.createIndex('tasks_cover_id_idx').on('tasks').column('cover_id').where(sql.ref('cover_id'), 'is not', null).execute();
  await db.schema.alterTable('tasks').addColumn('cover_width', 'integer').execute();
  await db.schema.alterTable('tasks').addColumn('cover_height', 'integer').execute();

  await db.schema
    .createTable('file_sweeps')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_sweeps_due_at_idx').on('file_sweeps').column('due_at').execute();

  // Every deleted attachment's files are swept, due at once ('' sorts before every timestamp).
  const sweep = (ref: string) => `
    insert into file_sweeps (storage_key, due_at)
    select k, '' from (select ${ref}.storage_key as k union all select ${ref}.thumbnail_key) keys where k is not null
    on conflict (storage_key) do update set due_at = ''`;
  if (postgres) {
    await sql.raw(`create function attachments_swept() returns trigger language plpgsql as $$
      begin ${sweep('old')}; return null; end $$`).execute(db);
    await sql`create trigger attachments_swept after delete on attachments for each row execute function attachments_swept()`.execute(db);
  } else {
    await sql.raw(`create trigger attachments_swept after delete on attachments begin ${sweep('old')}; end`).execute(db);
  }
}
