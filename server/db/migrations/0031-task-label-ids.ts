import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * `tasks.label_ids`: the ids of the task's labels, comma-separated (ids never hold a comma), null
 * when it has none. A page of tasks reads them with the task row instead of reading task_labels
 * once per task; the labels themselves are then read once per page
 * (repositories/task-label-reads.ts).
 *
 * Triggers on task_labels keep it, whatever writes or deletes the rows: a task write, a bulk
 * change, an import, a repeating task's next occurrence, a label's deletion cascading. The app
 * never writes the column. The ids are in byte order, so two tasks with the same labels have the
 * same text.
 *
 * - SQLite runs one writer at a time: a row trigger recomputes the task's ids from its rows.
 * - PostgreSQL runs a statement trigger once per statement over all the tasks it touched. It
 *   locks those tasks first and only then reads their rows: a read under the statement's
 *   snapshot could miss another transaction's label, committed while this one waited for the
 *   task's row, and overwrite the ids without it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('tasks').addColumn('label_ids', 'text').execute();
  if (postgres) {
    await sql`update tasks t set label_ids = l.ids
      from (select task_id, string_agg(label_id, ',' order by label_id collate "C") as ids from task_labels group by task_id) l
      where l.task_id = t.id`.execute(db);
    await sql.raw(`create function task_label_ids() returns trigger language plpgsql as $$
      begin
        if not exists (select 1 from changed) then return null; end if;
        perform 1 from tasks where id in (select task_id from changed) order by id for update;
        update tasks t set label_ids = (
            select string_agg(tl.label_id, ',' order by tl.label_id collate "C") from task_labels tl where tl.task_id = t.id)
          where t.id in (select task_id from changed);
        return null;
      end $$`).execute(db);
    await sql`create trigger task_label_ids_insert after insert on task_labels referencing new table as changed
      for each statement execute function task_label_ids()`.execute(db);
    await sql`create trigger task_label_ids_delete after delete on task_labels referencing old table as changed
      for each statement execute function task_label_ids()`.execute(db);
  } else {
    const ids = (ref: string) => `
      update tasks set label_ids = (select group_concat(label_id, ',' order by label_id) from task_labels where task_id = ${ref}.task_id)
      where id = ${ref}.task_id`;
    await sql.raw(`update tasks set label_ids = (select group_concat(label_id, ',' order by label_id) from task_labels where task_id = tasks.id)
      where id in (select task_id from task_labels)`).execute(db);
    await sql.raw(`create trigger task_label_ids_insert after insert on task_labels begin ${ids('new')}; end`).execute(db);
    await sql.raw(`create trigger task_label_ids_delete after delete on task_labels begin ${ids('old')}; end`).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const on = postgres ? ' on task_labels' : '';
  await sql.raw(`drop trigger if exists task_label_ids_insert${on}`).execute(db);
  await sql.raw(`drop trigger if exists task_label_ids_delete${on}`).execute(db);
  if (postgres) await sql.raw('drop function if exists task_label_ids()').execute(db);
  await db.schema.alterTable('tasks').dropColumn('label_ids').execute();
}
