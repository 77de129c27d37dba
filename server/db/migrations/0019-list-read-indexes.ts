import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * What "all my tasks" across many boards reads (server/repositories/task-list-queries.ts):
 *
 * - `tasks_board_status_rank_idx` and `tasks_assignee_status_rank_idx`: a board's (an
 *   assignee's) tasks of one status in sort=priority order (the priority's rank, then newest
 *   first), so a page of that sort reads one page of each board instead of sorting every task of
 *   every board. The rank is the expression the queries order by (task-order.ts `priorityRank`),
 *   written the same way here so both databases match it to the index; `priority` itself comes
 *   last so PostgreSQL can answer from the index alone. Two more index entries per task write
 *   (decision 107 measures what that costs).
 * - `tasks_assignee_status_deadline_idx` gains `board_id`: "assigned to me on a board I am not
 *   on" is then decided inside the index (counts and pages), without a table read per task.
 *   It replaces the index of 0010 of the same columns, so a write maintains as many indexes as before.
 * - `board_task_counts`: how many tasks each board has of each status, kept by triggers on
 *   `tasks` in the same transaction as the write (decision 107). The counts of "all my tasks"
 *   add up one row per board and status instead of counting every task of every board (50,000
 *   index entries for a person on 50 boards of 1,000). On PostgreSQL each connection adds to its
 *   own row (`shard`, from the backend's process id) so that concurrent writes to one board do
 *   not queue on one row until they commit; a count is the sum of a board's rows. SQLite has one
 *   writer and uses shard 0 only.
 */

const RANK = `(case priority when 'urgent' then 0 when 'high' then 1 when 'normal' then 2 else 3 end)`;
const SHARDS = 16;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql.raw(`create index tasks_board_status_rank_idx on tasks (board_id, status, ${RANK}, created_at desc, id desc, priority)`).execute(db);
  await sql.raw(`create index tasks_assignee_status_rank_idx on tasks (assignee_email, status, ${RANK}, created_at desc, id desc, board_id, priority)`).execute(db);
  await db.schema.dropIndex('tasks_assignee_status_deadline_idx').execute();
  await db.schema
    .createIndex('tasks_assignee_status_deadline_idx')
    .on('tasks')
    .columns(['assignee_email', 'status', 'deadline', 'created_at desc', 'id desc', 'created_by', 'board_id'])
    .execute();

  await db.schema
    .createTable('board_task_counts')
    .addColumn('board_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('board_task_counts_pkey', ['board_id', 'status', 'shard'])
    .execute();
  await sql`insert into board_task_counts (board_id, status, shard, n) select board_id, status, 0, count(*) from tasks group by board_id, status`.execute(db);

  if (postgres) {
    const add = (rows: string, sign: string) => `
      insert into board_task_counts as c (board_id, status, shard, n)
      select board_id, status, pg_backend_pid() % ${SHARDS}, ${sign}count(*) from ${rows} group by board_id, status
      on conflict (board_id, status, shard) do update set n = c.n + excluded.n`;
    // Inserts and deletes: once per statement, over all its rows (an import adds thousands at once).
    await sql.raw(`create function board_task_counts_insert() returns trigger language plpgsql as $$
      begin ${add('new_rows', '')}; return null; end $$`).execute(db);
    await sql.raw(`create function board_task_counts_delete() returns trigger language plpgsql as $$
      begin ${add('old_rows', '-')}; return null; end $$`).execute(db);
    // Updates: only a row whose board or status changes (the WHEN is tested without calling the function).
    await sql.raw(`create function board_task_counts_update() returns trigger language plpgsql as $$
      declare mine integer := pg_backend_pid() % ${SHARDS};
      begin
        insert into board_task_counts as c (board_id, status, shard, n) values (old.board_id, old.status, mine, -1)
          on conflict (board_id, status, shard) do update set n = c.n - 1;
        insert into board_task_counts as c (board_id, status, shard, n) values (new.board_id, new.status, mine, 1)
          on conflict (board_id, status, shard) do update set n = c.n + 1;
        return null;
      end $$`).execute(db);
    await sql`create trigger board_task_counts_insert after insert on tasks referencing new table as new_rows
      for each statement execute function board_task_counts_insert()`.execute(db);
    await sql`create trigger board_task_counts_delete after delete on tasks referencing old table as old_rows
      for each statement execute function board_task_counts_delete()`.execute(db);
    await sql`create trigger board_task_counts_update after update of board_id, status on tasks for each row
      when (old.board_id is distinct from new.board_id or old.status is distinct from new.status)
      execute function board_task_counts_update()`.execute(db);
  } else {
    const add = (row: string, delta: number) => `
      insert into board_task_counts (board_id, status, shard, n) values (${row}.board_id, ${row}.status, 0, ${delta})
      on conflict (board_id, status, shard) do update set n = n + ${delta};`;
    await sql.raw(`create trigger board_task_counts_insert after insert on tasks begin ${add('new', 1)} end`).execute(db);
    await sql.raw(`create trigger board_task_counts_delete after delete on tasks begin ${add('old', -1)} end`).execute(db);
    await sql
      .raw(
        `create trigger board_task_counts_update after update of board_id, status on tasks
        when old.board_id is not new.board_id or old.status is not new.status begin ${add('old', -1)} ${add('new', 1)} end`,
      )
      .execute(db);
  }
  // A deleted board's tasks go with it (their triggers count them down); so do its count rows.
  if (postgres) {
    await sql.raw(`create function board_task_counts_board_gone() returns trigger language plpgsql as $$
      begin delete from board_task_counts c using old_boards b where c.board_id = b.id; return null; end $$`).execute(db);
    await sql`create trigger board_task_counts_board_gone after delete on boards referencing old table as old_boards
      for each statement execute function board_task_counts_board_gone()`.execute(db);
  } else {
    await sql`create trigger board_task_counts_board_gone after delete on boards begin
      delete from board_task_counts where board_id = old.id; end`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const on = (table: string) => (postgres ? ` on ${table}` : '');
  for (const name of ['insert', 'delete', 'update']) await sql.raw(`drop trigger if exists board_task_counts_${name}${on('tasks')}`).execute(db);
  await sql.raw(`drop trigger if exists board_task_counts_board_gone${on('boards')}`).execute(db);
  if (postgres) {
    for (const name of ['insert', 'delete', 'update', 'board_gone']) await sql.raw(`drop function if exists board_task_counts_${name}()`).execute(db);
  }
  await db.schema.dropTable('board_task_counts').execute();
  await db.schema.dropIndex('tasks_assignee_status_deadline_idx').execute();
  await db.schema
    .createIndex('tasks_assignee_status_deadline_idx')
    .on('tasks')
    .columns(['assignee_email', 'status', 'deadline', 'created_at desc', 'id desc', 'created_by'])
    .execute();
  await db.schema.dropIndex('tasks_assignee_status_rank_idx').execute();
  await db.schema.dropIndex('tasks_board_status_rank_idx').execute();
}
