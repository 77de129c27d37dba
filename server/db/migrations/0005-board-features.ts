import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Board features: a task's description, comments, the activity log, and each database's own
 * substring-search index over task title, work title, description and assignee.
 *
 * - Comments and activity keep the author's name and e-mail beside the (nullable) user id, so
 *   they stay readable with a name after the account is deleted. `seq` (an integer identity)
 *   orders them: several can share one millisecond, and ids are random.
 * - SQLite: an FTS5 table with the trigram tokenizer, contentless (the text lives only in
 *   `tasks`) and kept in sync by triggers. Its integer rowids come from `task_search_keys`,
 *   not from `tasks.rowid`, because VACUUM may renumber the implicit rowid of a table whose
 *   primary key is not an INTEGER PRIMARY KEY, which would silently corrupt the index.
 * - PostgreSQL: pg_trgm with one GIN index over the four columns (ILIKE '%…%' uses it). An
 *   extension belongs to the whole database; it is created in `public` when missing (not in the
 *   current schema, which may be dropped on its own), and the index names the operator class
 *   in whichever schema holds the extension.
 * @see https://www.sqlite.org/fts5.html#the_trigram_tokenizer
 * @see https://www.postgresql.org/docs/15/pgtrgm.html#PGTRGM-INDEX
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('tasks').addColumn('description', 'text', (c) => c.notNull().defaultTo('')).execute();

  const seqColumn = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('seq', 'integer', (c) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()));

  await seqColumn('comments')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_email', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_task_seq_idx').on('comments').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('comments_author_idx').on('comments').column('author_id').execute();

  await seqColumn('task_activity')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('created', 'updated', 'completed', 'reopened', 'commented')`))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    // JSON text `{field: {from, to}}` for `updated`, else null.
    .addColumn('changes', 'text')
    .execute();
  await db.schema.createIndex('task_activity_task_seq_idx').on('task_activity').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('task_activity_actor_idx').on('task_activity').column('actor_id').execute();

  if (postgres) {
    // Parallel migrations of several schemas in one database must not race to create it.
    await sql`select pg_advisory_xact_lock(hashtext('taskwise:pg_trgm'))`.execute(db);
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const found = await sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db);
    const ops = sql`${sql.id(found.rows[0]?.schema ?? 'public')}.gin_trgm_ops`;
    await sql`create index tasks_search_trgm_idx on tasks using gin
      (task_title ${ops}, work_title ${ops}, description ${ops}, assignee_email ${ops})`.execute(db);
    return;
  }

  await sql`create table task_search_keys (key integer primary key, task_id text not null unique)`.execute(db);
  await sql`create virtual table tasks_fts using fts5(
      task_title, work_title, description, assignee_email,
      content = '', contentless_delete = 1, tokenize = 'trigram')`.execute(db);
  await sql`insert into task_search_keys (task_id) select id from tasks`.execute(db);
  await sql`insert into tasks_fts (rowid, task_title, work_title, description, assignee_email)
      select k.key, t.task_title, t.work_title, t.description, t.assignee_email
      from tasks t join task_search_keys k on k.task_id = t.id`.execute(db);
  await sql`create trigger tasks_search_insert after insert on tasks begin
      insert into task_search_keys (task_id) values (new.id);
      insert into tasks_fts (rowid, task_title, work_title, description, assignee_email)
        values ((select key from task_search_keys where task_id = new.id),
                new.task_title, new.work_title, new.description, new.assignee_email);
    end`.execute(db);
  // A contentless-delete FTS5 table takes an UPDATE of every column at once.
  await sql`create trigger tasks_search_update
      after update of task_title, work_title, description, assignee_email on tasks begin
      update tasks_fts set task_title = new.task_title, work_title = new.work_title,
          description = new.description, assignee_email = new.assignee_email
        where rowid = (select key from task_search_keys where task_id = new.id);
    end`.execute(db);
  await sql`create trigger tasks_search_delete after delete on tasks begin
      delete from tasks_fts where rowid = (select key from task_search_keys where task_id = old.id);
      delete from task_search_keys where task_id = old.id;
    end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop index if exists tasks_search_trgm_idx`.execute(db);
  } else {
    for (const trigger of ['tasks_search_insert', 'tasks_search_update', 'tasks_search_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    }
    await sql`drop table if exists tasks_fts`.execute(db);
    await sql`drop table if exists task_search_keys`.execute(db);
  }
  await db.schema.dropTable('task_activity').ifExists().execute();
  await db.schema.dropTable('comments').ifExists().execute();
  await db.schema.alterTable('tasks').dropColumn('description').execute();
}
