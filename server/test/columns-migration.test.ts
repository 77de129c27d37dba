import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../services/passwords.ts';
import { signIn } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';
import { migratorOf, openUnmigrated } from './migration-support.ts';

/**
 * Migration 0021 gives every existing board "Tasks To Do" and "Completed" and puts every task in
 * the column of its status, newest at the top, without losing a row. The database is filled by
 * the version before it (up to 0019: the migration depends on nothing after that), then opened
 * by the app, which migrates it to the latest.
 */

const PASSWORD = 'an old password of the old version';
const people = ['ada', 'bob'].map((name, i) => ({ id: `user-${name}-0000000000000`.slice(0, 22), email: `${name}@example.test`, fullName: `${name} Old`, i }));
const shared = { id: 'board-shared-000000000', name: 'Team' };
// Just before the test clock's start (helpers.ts).
const at = (i: number) => new Date(Date.UTC(2031, 2, 1, 0, 0, 0, i)).toISOString();
interface OldTask {
  id: string;
  boardId: string;
  createdBy: string;
  status: 'todo' | 'done';
  createdAt: string;
}
const tasks: OldTask[] = [];
// 130 tasks per board, some created at the same millisecond (the id breaks the tie), in an order
// that is not their age, so "newest at the top" is something the migration has to work out.
for (const boardId of [...people.map((p) => p.id), shared.id]) {
  for (let i = 0; i < 130; i += 1) {
    const n = (i * 37) % 130;
    tasks.push({ id: `task-${boardId.slice(5, 9)}-${String(i).padStart(12, '0')}`, boardId, createdBy: people[i % 2]?.id ?? '', status: n % 3 === 0 ? 'done' : 'todo', createdAt: at(Math.floor(n / 2)) });
  }
}

async function fillVersionBefore(url: string): Promise<void> {
  const db = openUnmigrated(url);
  try {
    const result = await (await migratorOf(db)).migrateTo('0019-list-read-indexes');
    if (result.error !== undefined) throw result.error as Error;
    const hash = await hashPassword(PASSWORD);
    for (const p of people) {
      await sql`insert into users (id, email, full_name, password_hash, created_at, updated_at) values (${p.id}, ${p.email}, ${p.fullName}, ${hash}, ${at(p.i)}, ${at(p.i)})`.execute(db);
      await sql`insert into boards (id, name, description, personal, created_at, updated_at) values (${p.id}, 'Personal', '', 1, ${at(0)}, ${at(0)})`.execute(db);
      await sql`insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email) values (${p.id}, ${p.email}, ${p.id}, 'admin', ${at(0)}, ${p.fullName}, ${p.email})`.execute(db);
    }
    await sql`insert into boards (id, name, description, personal, created_at, updated_at) values (${shared.id}, ${shared.name}, '', 0, ${at(0)}, ${at(0)})`.execute(db);
    for (const p of people) {
      await sql`insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email) values (${shared.id}, ${p.email}, ${p.id}, 'admin', ${at(0)}, ${p.fullName}, ${p.email})`.execute(db);
    }
    for (const task of tasks) {
      await sql`insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at, version, description, board_id)
        values (${task.id}, '', ${`Old ${task.id}`}, ${people[0]?.email}, ${task.createdBy}, null, 'normal', ${task.status}, ${task.createdAt}, ${task.createdAt}, 1, '', ${task.boardId})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

const t = useTestApp({ before: fillVersionBefore });

/** Newest first, ties by id descending: the order the old board showed. */
const newestFirst = (a: OldTask, b: OldTask) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1);
const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('migration 0021 (board columns) on a database filled by the previous version', () => {
  it('gives every board "Tasks To Do" (todo) then "Completed" (done), and every task the column of its status, newest at the top, losing no row', async () => {
    const columns = await t.app.db.selectFrom('boardColumns').selectAll().orderBy('boardId').orderBy('position').execute();
    const boardIds = [...people.map((p) => p.id), shared.id].sort();
    expect(columns.map((c) => [c.boardId, c.name, c.category, c.wipLimit])).toEqual(
      boardIds.flatMap((id) => [
        [id, 'Tasks To Do', 'todo', null],
        [id, 'Completed', 'done', null],
      ]),
    );
    const rows = await t.app.db.selectFrom('tasks').select(['id', 'boardId', 'status', 'columnId', 'position']).execute();
    expect(rows).toHaveLength(tasks.length);
    const columnOf = new Map(columns.map((c) => [c.id, c]));
    for (const row of rows) {
      const column = columnOf.get(row.columnId);
      expect(column?.boardId).toBe(row.boardId);
      expect(column?.category).toBe(row.status);
    }
    for (const column of columns) {
      const expected = tasks.filter((task) => task.boardId === column.boardId && task.status === column.category).sort(newestFirst).map((task) => task.id);
      const inColumn = rows.filter((row) => row.columnId === column.id);
      expect(new Set(inColumn.map((row) => row.position)).size).toBe(inColumn.length);
      expect([...inColumn].sort((a, b) => bytewise(a.position, b.position)).map((row) => row.id)).toEqual(expected);
      // The database orders them the same way (byte-wise on both).
      const ordered = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', column.id).orderBy('position').execute();
      expect(ordered.map((row) => row.id)).toEqual(expected);
    }
  });

  it('the API shows every task with its column and position, and a new task lands above the migrated ones', async () => {
    const cookie = await signIn(t, { email: people[0]?.email ?? '', password: PASSWORD });
    const res = await t.request('GET', `/api/tasks?board=${shared.id}&status=todo&limit=100`, { cookie });
    expect(res.status).toBe(200);
    const listed = res.json.data.tasks as { _id: string; columnId: string; position: string }[];
    expect(listed.length).toBeGreaterThan(0);
    for (const task of listed) expect(task.columnId).toMatch(/^[A-Za-z0-9_-]+$/);
    const created = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'After the migration', assignee: 'someone@example.test', boardId: shared.id } });
    expect(created.status).toBe(201);
    const task = created.json.data.task as { columnId: string; position: string };
    expect(task.columnId).toBe(listed[0]?.columnId);
    const top = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', task.columnId).orderBy('position').limit(1).executeTakeFirst();
    expect(top?.id).toBe(created.json.data.task._id);
  });

  it.runIf(isPostgres)('stores order keys with the "C" collation on PostgreSQL', async () => {
    const { rows } = await sql<{ table: string; collation: string }>`select table_name as "table", collation_name as collation from information_schema.columns
      where column_name = 'position' and table_name in ('tasks', 'board_columns') and table_schema = current_schema() order by table_name`.execute(t.app.db);
    expect(rows).toEqual([
      { table: 'board_columns', collation: 'C' },
      { table: 'tasks', collation: 'C' },
    ]);
  });
});
