import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../services/passwords.ts';
import { signIn } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { migratorOf, openUnmigrated } from './migration-support.ts';

/**
 * Migration 0031 fills `tasks.label_ids` from the label rows tasks already have: the ids in byte
 * order, null for a task without labels. The database is filled by the version before it, then
 * opened by the app, which migrates it to the latest.
 */

const PASSWORD = 'an old password of the old version';
const ada = { id: 'user-ada-0000000000000', email: 'ada@example.test', fullName: 'Ada Old' };
const board = { id: 'board-team-0000000000', name: 'Team' };
// Just before the test clock's start (helpers.ts).
const at = new Date(Date.UTC(2031, 2, 1)).toISOString();
// Ids whose byte order (B, a, c) is neither their insertion order nor a case-blind one
// (a, B, c), and names whose order is none of those.
const labels = [
  { id: 'label-c-0000000000000', name: 'Alpha' },
  { id: 'label-B-0000000000000', name: 'Gamma' },
  { id: 'label-a-0000000000000', name: 'Beta' },
];
const tasks = [
  { id: 'task-three-00000000000', labels: ['label-c-0000000000000', 'label-B-0000000000000', 'label-a-0000000000000'] },
  { id: 'task-one-0000000000000', labels: ['label-a-0000000000000'] },
  { id: 'task-none-000000000000', labels: [] },
];

async function fillVersionBefore(url: string): Promise<void> {
  const db = openUnmigrated(url);
  try {
    const result = await (await migratorOf(db)).migrateTo('0030-outbox-texts');
    if (result.error !== undefined) throw result.error as Error;
    const hash = await hashPassword(PASSWORD);
    await sql`insert into users (id, email, full_name, password_hash, created_at, updated_at) values (${ada.id}, ${ada.email}, ${ada.fullName}, ${hash}, ${at}, ${at})`.execute(db);
    await sql`insert into boards (id, name, description, personal, created_at, updated_at) values (${board.id}, ${board.name}, '', 0, ${at}, ${at})`.execute(db);
    await sql`insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email) values (${board.id}, ${ada.email}, ${ada.id}, 'admin', ${at}, ${ada.fullName}, ${ada.email})`.execute(db);
    // The board's "Tasks To Do" column, which a trigger of the old version made with the board.
    const { rows } = await sql<{ id: string }>`select id from board_columns where board_id = ${board.id} and category = 'todo'`.execute(db);
    const column = rows[0]?.id ?? '';
    for (const label of labels) {
      await sql`insert into labels (id, board_id, name, name_key, color, created_at, updated_at) values (${label.id}, ${board.id}, ${label.name}, ${label.name.toLowerCase()}, 'blue', ${at}, ${at})`.execute(db);
    }
    for (const [i, task] of tasks.entries()) {
      await sql`insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at, version, description, board_id, column_id, position)
        values (${task.id}, '', ${`Old ${task.id}`}, ${ada.email}, ${ada.id}, null, 'normal', 'todo', ${at}, ${at}, 1, '', ${board.id}, ${column}, ${`a${i}`})`.execute(db);
      for (const label of task.labels) await sql`insert into task_labels (task_id, label_id) values (${task.id}, ${label})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

const t = useTestApp({ before: fillVersionBefore });
const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('migration 0031 (tasks.label_ids) on a database filled by the previous version', () => {
  it('gives every task the ids of its label rows in byte order, and null to a task without labels', async () => {
    const rows = await t.app.db.selectFrom('tasks').select(['id', 'labelIds']).execute();
    expect(new Map(rows.map((row) => [row.id, row.labelIds]))).toEqual(
      new Map(tasks.map((task) => [task.id, task.labels.length === 0 ? null : [...task.labels].sort(bytewise).join(',')])),
    );
  });

  it('the API lists each task with its labels by name, and a change of them after the migration is kept too', async () => {
    const cookie = await signIn(t, { email: ada.email, password: PASSWORD });
    const res = await t.request('GET', `/api/tasks?board=${board.id}&limit=10`, { cookie });
    expect(res.status).toBe(200);
    const listed = res.json.data.tasks as { _id: string; labels: { name: string }[] }[];
    expect(new Map(listed.map((task) => [task._id, task.labels.map((l) => l.name)]))).toEqual(
      new Map([
        ['task-three-00000000000', ['Alpha', 'Beta', 'Gamma']],
        ['task-one-0000000000000', ['Beta']],
        ['task-none-000000000000', []],
      ]),
    );
    const patched = await t.request('PATCH', '/api/tasks/task-none-000000000000', { cookie, body: { labelIds: ['label-B-0000000000000'] } });
    expect(patched.status, patched.body).toBe(200);
    const row = await t.app.db.selectFrom('tasks').select('labelIds').where('id', '=', 'task-none-000000000000').executeTakeFirstOrThrow();
    expect(row.labelIds).toBe('label-B-0000000000000');
  });
});
