import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Shared boards: every task belongs to exactly one board.
 *
 * - `boards`: `personal` is 1 for an account's own board ("Personal"), 0 for a shared one. A
 *   personal board's id is its owner's user id, so "my personal board" needs no lookup and the
 *   backfill below is a handful of set-based statements however many accounts exist.
 * - `board_members`: one row per board and lower-cased e-mail address, with a role (`admin`,
 *   `member`, `viewer`). `user_id` is null while the address has no account (the membership is
 *   "invited") and set once an account with that address exists ("active"). Who added the
 *   address is kept by name and address, so the row outlives that person's account.
 *   Visibility reads (user_id, board_id); activation at sign-up reads (email).
 * - `tasks.board_id`: every task's board. SQLite cannot add a NOT NULL column without a default,
 *   so the column is added with the default '' on both databases and every row is filled here;
 *   writes always set it. There is no foreign key (SQLite cannot add one to an existing table):
 *   deleting a board deletes its tasks in the same transaction (server/services).
 *   Two indexes serve a board's list and counts like 0001/0010 serve a person's: (board_id,
 *   status, created_at desc, id desc) for newest first, (board_id, status, deadline, created_at
 *   desc, id desc) for sort=deadline and the counts; "every board I am on" reads one cut of
 *   each of my boards from them (server/repositories/task-list-queries.ts).
 * - `events.board_id`: the board a task or comment event is about (a board event: the board it
 *   names), null for other events. A task event reaches the board's active members and the
 *   e-mails of `events.audience` (the assignee). A change that moved the task or changed its
 *   assignee also names where the task was before: `from_board_id` and `from_audience` (null
 *   when unchanged), so each stream can tell whether it saw the task before, sees it after, or
 *   both.
 * - `mail_settings.notify_boards`: whether the address wants "you were added to a board" mail.
 *
 * Existing data: every account gets its personal board with itself as its active admin (a
 * deleted account's nameplate row gets the board but no membership, so its tasks stay visible
 * to their assignees only), and every task moves onto its creator's personal board.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('boards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('personal', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('board_members')
    .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addColumn('added_by_name', 'text', (c) => c.notNull())
    .addColumn('added_by_email', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('board_members_pkey', ['board_id', 'email'])
    .execute();
  await db.schema
    .createIndex('board_members_user_board_idx')
    .on('board_members')
    .columns(['user_id', 'board_id'])
    .where(sql.ref('user_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('board_members_email_idx').on('board_members').column('email').execute();

  await db.schema.alterTable('tasks').addColumn('board_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .createIndex('tasks_board_status_created_idx')
    .on('tasks')
    .columns(['board_id', 'status', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('tasks_board_status_deadline_idx')
    .on('tasks')
    .columns(['board_id', 'status', 'deadline', 'created_at desc', 'id desc'])
    .execute();
  await db.schema.alterTable('events').addColumn('board_id', 'text').execute();
  await db.schema.alterTable('events').addColumn('from_board_id', 'text').execute();
  await db.schema.alterTable('events').addColumn('from_audience', 'text').execute();
  await db.schema.alterTable('mail_settings').addColumn('notify_boards', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  await sql`insert into boards (id, name, description, personal, created_at, updated_at)
    select id, 'Personal', '', 1, created_at, created_at from users`.execute(db);
  // A deleted account keeps its row as a nameplate with a password hash of '!' (see the account
  // routes): it is nobody's member any more.
  await sql`insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email)
    select id, email, id, 'admin', created_at, full_name, email from users where password_hash <> '!'`.execute(db);
  await sql`update tasks set board_id = created_by`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table tasks alter column board_id drop default`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_settings').dropColumn('notify_boards').execute();
  await db.schema.alterTable('events').dropColumn('from_audience').execute();
  await db.schema.alterTable('events').dropColumn('from_board_id').execute();
  await db.schema.alterTable('events').dropColumn('board_id').execute();
  await db.schema.dropIndex('tasks_board_status_deadline_idx').ifExists().execute();
  await db.schema.dropIndex('tasks_board_status_created_idx').ifExists().execute();
  await db.schema.alterTable('tasks').dropColumn('board_id').execute();
  await db.schema.dropTable('board_members').ifExists().execute();
  await db.schema.dropTable('boards').ifExists().execute();
}
