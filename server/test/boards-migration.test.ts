import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../services/passwords.ts';
import { signIn } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { migratorOf, openUnmigrated } from './migration-support.ts';

/**
 * A database filled by the version before boards (migrations up to 0010), then opened by the
 * app, which migrates it to the latest: nothing is lost and everyone sees what they saw.
 */

const PASSWORD = 'an old password of the old version';
const people = ['ada', 'bob', 'cy'].map((name, i) => ({ id: `user-${name}-0000000000000`.slice(0, 22), email: `${name}@example.test`, fullName: `${name} Old`, i }));
/** A deleted account as the previous version left it: a nameplate nobody can sign in to. */
const nameplate = { id: 'user-gone-000000000000', email: 'deleted-AbCdEfGhIjKl@deleted.invalid', fullName: 'Gone Person' };
interface OldTask {
  id: string;
  createdBy: string;
  assignee: string;
}
const tasks: OldTask[] = [];
const everyone = [...people.map((p) => p.id), nameplate.id];
const emails = [...people.map((p) => p.email), 'outsider@example.test'];
let n = 0;
for (const createdBy of everyone) {
  for (const assignee of emails) {
    n += 1;
    tasks.push({ id: `task-${String(n).padStart(17, '0')}`, createdBy, assignee });
  }
}
/** What the old rule showed each person: created by them or assigned to their address. */
const sawBefore = (p: (typeof people)[number]) =>
  tasks
    .filter((task) => task.createdBy === p.id || task.assignee === p.email)
    .map((task) => task.id)
    .sort();

async function fillOldVersion(url: string): Promise<void> {
  const db = openUnmigrated(url);
  try {
    const migrator = await migratorOf(db);
    const result = await migrator.migrateTo('0010-board-deadline-indexes');
    if (result.error !== undefined) throw result.error as Error;
    const hash = await hashPassword(PASSWORD);
    const at = (i: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString();
    for (const p of people) {
      await sql`insert into users (id, email, full_name, password_hash, created_at, updated_at) values (${p.id}, ${p.email}, ${p.fullName}, ${hash}, ${at(p.i)}, ${at(p.i)})`.execute(db);
    }
    await sql`insert into users (id, email, full_name, password_hash, created_at, updated_at) values (${nameplate.id}, ${nameplate.email}, ${nameplate.fullName}, '!', ${at(9)}, ${at(9)})`.execute(db);
    for (const [i, task] of tasks.entries()) {
      await sql`insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at, version, description)
        values (${task.id}, '', ${`Old task ${i}`}, ${task.assignee}, ${task.createdBy}, null, 'normal', ${i % 3 === 0 ? 'done' : 'todo'}, ${at(100 + i)}, ${at(100 + i)}, 1, '')`.execute(db);
      await sql`insert into comments (id, task_id, author_id, author_name, author_email, body, created_at, updated_at)
        values (${`comment-${task.id}`}, ${task.id}, ${task.createdBy}, 'Someone', 'someone@example.test', 'An old comment', ${at(200 + i)}, ${at(200 + i)})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

const t = useTestApp({ before: fillOldVersion });

describe('migration 0011 on a database filled by the previous version', () => {
  it('gives every account its personal board with itself as active admin (not the nameplate), puts every task on its creator’s board, loses no row', async () => {
    const boards = await t.app.db.selectFrom('boards').selectAll().orderBy('id').execute();
    expect(boards.map((b) => [b.id, b.name, b.personal])).toEqual([...everyone].sort().map((id) => [id, 'Personal', 1]));
    const members = await t.app.db.selectFrom('boardMembers').select(['boardId', 'userId', 'email', 'role']).orderBy('boardId').execute();
    expect(members).toEqual(people.map((p) => ({ boardId: p.id, userId: p.id, email: p.email, role: 'admin' })).sort((a, b) => a.boardId.localeCompare(b.boardId)));
    const stored = await t.app.db.selectFrom('tasks').select(['id', 'boardId', 'createdBy']).execute();
    expect(stored).toHaveLength(tasks.length);
    for (const row of stored) expect(row.boardId).toBe(row.createdBy);
    expect(await t.app.db.selectFrom('comments').select('id').execute()).toHaveLength(tasks.length);
    expect(await t.app.db.selectFrom('users').select('id').execute()).toHaveLength(everyone.length);
  });

  it('the API shows each person exactly the tasks they saw before, in every list shape and in the counts', async () => {
    for (const p of people) {
      const cookie = await signIn(t, { email: p.email, password: PASSWORD });
      const expected = sawBefore(p);
      for (const query of ['', '?limit=2', '?limit=100', '?limit=100&sort=deadline', '?limit=100&sort=priority', '?q=Old%20task&limit=100']) {
        const res = await t.request('GET', `/api/tasks${query}`, { cookie });
        const seen = res.json.data.tasks.map((task) => task._id);
        if (query === '?limit=2') expect(seen.filter((id) => expected.includes(id))).toHaveLength(2);
        else expect(seen.sort(), `${p.email} ${query}`).toEqual(expected);
      }
      const counts = (await t.request('GET', '/api/tasks/counts', { cookie })).json.data.counts;
      expect(counts.todo + counts.done).toBe(expected.length);
      for (const task of tasks) {
        const res = await t.request('GET', `/api/tasks/${task.id}/comments`, { cookie });
        expect(res.status, `${p.email} ${task.id}`).toBe(expected.includes(task.id) ? 200 : 404);
      }
    }
  });
});
