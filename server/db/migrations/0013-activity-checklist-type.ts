import { PostgresAdapter, sql, type Kysely } from 'kysely';

const TYPES = ['created', 'updated', 'completed', 'reopened', 'commented'];

/**
 * `task_activity.type` admits `checklist` (an entry per checklist change: `{action, text}` in
 * `changes`). The column's CHECK listed the five earlier types. PostgreSQL replaces the
 * constraint; SQLite cannot alter a CHECK, so the table is rebuilt with the same columns, rows
 * (`seq` values included, so the log's order is kept) and indexes
 * (https://www.sqlite.org/lang_altertable.html#otheralter).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await setTypes(db, [...TYPES, 'checklist']);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('task_activity').where('type', '=', 'checklist').execute();
  await setTypes(db, TYPES);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
async function setTypes(db: Kysely<any>, types: string[]): Promise<void> {
  const check = sql`type in (${sql.join(types.map((type) => sql.lit(type)))})`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table task_activity drop constraint task_activity_type_check, add constraint task_activity_type_check check (${check})`.execute(db);
    return;
  }
  await db.schema
    .createTable('task_activity_next')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(check))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('changes', 'text')
    .execute();
  await sql`insert into task_activity_next (seq, id, task_id, type, actor_id, actor_name, actor_email, at, changes)
    select seq, id, task_id, type, actor_id, actor_name, actor_email, at, changes from task_activity`.execute(db);
  await db.schema.dropTable('task_activity').execute();
  await db.schema.alterTable('task_activity_next').renameTo('task_activity').execute();
  await db.schema.createIndex('task_activity_task_seq_idx').on('task_activity').columns(['task_id', 'seq']).execute();
  await db.schema.createIndex('task_activity_actor_idx').on('task_activity').column('actor_id').execute();
}
