import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Workflow boards: each board has its own columns, and each task a place in one of them.
 *
 * - `board_columns`: `{id, board_id, name, category ('todo'|'done'), wip_limit (null or 1–999),
 *   position}`. `position` is an order key (a fractional index, compared byte-wise: `COLLATE "C"`
 *   on PostgreSQL, SQLite's default BINARY) like a task's. `(board_id, id)` is unique so a task's
 *   (board, column) pair can reference it on PostgreSQL.
 * - Every board gets "Tasks To Do" (todo) and "Completed" (done) when it is inserted, by a
 *   trigger on `boards` (decision 124): whoever inserts a board (the app, an import, a test, the
 *   bench) gets a board with its two columns, and this migration gives existing boards the same.
 * - `tasks.column_id`: the task's column, always one of its own board's. PostgreSQL: NOT NULL and
 *   a foreign key on (board_id, column_id), checked at the end of each statement, so a task moved
 *   to another board changes both in one statement. SQLite cannot add a NOT NULL column without a
 *   default nor a foreign key to an existing table (0011 met the same): the column defaults to ''
 *   and triggers refuse a task whose column is not one of its board's.
 * - `tasks.position`: the task's order key in its column, ascending byte-wise (top first);
 *   unique per column, so two writes that would give two tasks the same key cannot both commit
 *   (decision 123). The unique index (column_id, position) is also what a column page reads.
 *
 * Existing tasks: each goes into the column of its status, newest at the top. Their keys are
 * the library's integers 'd0000', 'd0001', … (base 62, four digits: 14,776,336 per column) in
 * newest-first order, made here set-based so a table of a million tasks needs no row-by-row pass.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The order key 'd' + four base-62 digits of the integer expression `n` (0-based). */
const keyOf = (n: string) =>
  `'d' || ${[238328, 3844, 62, 1].map((div) => `substr('${BASE62}', cast(((${n}) / ${div}) % 62 + 1 as integer), 1)`).join(' || ')}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const keyType = postgres ? sql.raw('text collate "C"') : sql.raw('text');
  await db.schema
    .createTable('board_columns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('wip_limit', 'integer')
    .addColumn('position', keyType, (c) => c.notNull())
    .addUniqueConstraint('board_columns_board_id_key', ['board_id', 'id'])
    .execute();

  // The two columns of a new board (and, below, of every existing one).
  const newId = postgres ? 'gen_random_uuid()::text' : 'lower(hex(randomblob(16)))';
  const defaults = (boards: string) => `
    insert into board_columns (id, board_id, name, category, wip_limit, position)
    select ${newId}, b.id, 'Tasks To Do', 'todo', cast(null as integer), 'a0' from ${boards} b
    union all
    select ${newId}, b.id, 'Completed', 'done', cast(null as integer), 'a1' from ${boards} b`;
  if (postgres) {
    await sql.raw(`create function board_columns_defaults() returns trigger language plpgsql as $$
      begin ${defaults('new_boards')}; return null; end $$`).execute(db);
    await sql`create trigger board_columns_defaults after insert on boards referencing new table as new_boards
      for each statement execute function board_columns_defaults()`.execute(db);
  } else {
    await sql.raw(`create trigger board_columns_defaults after insert on boards begin
      ${defaults('(select new.id as id)')}; end`).execute(db);
  }
  await sql.raw(defaults('boards')).execute(db);

  if (postgres) {
    await sql`alter table tasks add column column_id text`.execute(db);
    await sql`alter table tasks add column position text collate "C"`.execute(db);
  } else {
    await sql`alter table tasks add column column_id text not null default ''`.execute(db);
    await sql`alter table tasks add column position text not null default ''`.execute(db);
  }
  // Every task into the first column of its status's category (each board has one of each now).
  await sql`update tasks set column_id = (select c.id from board_columns c where c.board_id = tasks.board_id
      and c.category = case when tasks.status = 'done' then 'done' else 'todo' end)`.execute(db);
  await sql
    .raw(
      `update tasks set position = r.key from (
        select id, ${keyOf('row_number() over (partition by column_id order by created_at desc, id desc) - 1')} as key from tasks
      ) r where r.id = tasks.id`,
    )
    .execute(db);
  await sql`create unique index tasks_column_position_idx on tasks (column_id, position)`.execute(db);
  if (postgres) {
    await sql`alter table tasks alter column column_id set not null, alter column position set not null`.execute(db);
    await sql`alter table tasks add constraint tasks_board_column_fkey foreign key (board_id, column_id) references board_columns (board_id, id)`.execute(db);
  } else {
    const check = (when: string) =>
      `select raise(abort, 'FOREIGN KEY constraint failed: task column not on its board') where ${when}
        not exists (select 1 from board_columns c where c.id = new.column_id and c.board_id = new.board_id)`;
    await sql.raw(`create trigger tasks_board_column_insert before insert on tasks begin ${check('')}; end`).execute(db);
    await sql
      .raw(`create trigger tasks_board_column_update before update of board_id, column_id on tasks begin ${check('')}; end`)
      .execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`alter table tasks drop constraint if exists tasks_board_column_fkey`.execute(db);
  } else {
    await sql`drop trigger if exists tasks_board_column_insert`.execute(db);
    await sql`drop trigger if exists tasks_board_column_update`.execute(db);
  }
  await sql`drop index if exists tasks_column_position_idx`.execute(db);
  await db.schema.alterTable('tasks').dropColumn('position').execute();
  await db.schema.alterTable('tasks').dropColumn('column_id').execute();
  if (postgres) {
    await sql`drop trigger if exists board_columns_defaults on boards`.execute(db);
    await sql`drop function if exists board_columns_defaults()`.execute(db);
  } else {
    await sql`drop trigger if exists board_columns_defaults`.execute(db);
  }
  await db.schema.dropTable('board_columns').execute();
}
