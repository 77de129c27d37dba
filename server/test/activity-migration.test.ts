import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Activity } from '#shared/schemas/comments.ts';
import { hashPassword } from '../services/passwords.ts';
import { signIn } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';
import { migratorOf, openUnmigrated } from './migration-support.ts';

/**
 * Migration 0013 lets `task_activity.type` be `checklist`; on SQLite it rebuilds the table. A
 * database filled up to 0012 keeps every entry, in its order, and new entries come after them.
 */

const PASSWORD = 'a password of the version before';
const user = { id: 'user-ada-0000000000000', email: 'ada@example.test', fullName: 'Ada Old' };
const taskId = 'task-000000000000001';
const at = (i: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString();
const OLD_TYPES = ['created', 'updated', 'commented', 'completed', 'reopened'] as const;

let databaseUrl = '';
async function fillVersionBefore(url: string): Promise<void> {
  databaseUrl = url;
  const db = openUnmigrated(url);
  try {
    const result = await (await migratorOf(db)).migrateTo('0012-task-details');
    if (result.error !== undefined) throw result.error as Error;
    await sql`insert into users (id, email, full_name, password_hash, created_at, updated_at)
      values (${user.id}, ${user.email}, ${user.fullName}, ${await hashPassword(PASSWORD)}, ${at(0)}, ${at(0)})`.execute(db);
    await sql`insert into boards (id, name, description, personal, created_at, updated_at) values (${user.id}, 'Personal', '', 1, ${at(0)}, ${at(0)})`.execute(db);
    await sql`insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email)
      values (${user.id}, ${user.email}, ${user.id}, 'admin', ${at(0)}, ${user.fullName}, ${user.email})`.execute(db);
    await sql`insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at, version, description, board_id)
      values (${taskId}, '', 'Old task', ${user.email}, ${user.id}, null, 'normal', 'todo', ${at(1)}, ${at(1)}, 1, '', ${user.id})`.execute(db);
    // Ids in reverse order of insertion: the log's order must come from `seq`, not the id.
    for (const [i, type] of OLD_TYPES.entries()) {
      const changes = type === 'updated' ? JSON.stringify({ taskTitle: { from: 'Older task', to: 'Old task' } }) : null;
      await sql`insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes)
        values (${`activity-${9 - i}`}, ${taskId}, ${type}, ${user.id}, ${user.fullName}, ${user.email}, ${at(2 + i)}, ${changes})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

const t = useTestApp({ before: fillVersionBefore });

describe('migration 0013 (checklist activity entries)', () => {
  it('keeps every activity entry in its order, and a checklist change adds its entry after them', async () => {
    const cookie = await signIn(t, { email: user.email, password: PASSWORD });
    const added = await t.request('POST', `/api/tasks/${taskId}/checklist`, { cookie, body: { text: 'New item' } });
    expect(added.status, added.body).toBe(201);
    const res = await t.request('GET', `/api/tasks/${taskId}/activity`, { cookie });
    const entries = (res.json as unknown as { data: { activity: Activity[] } }).data.activity;
    expect(entries.map((entry) => [entry._id, entry.type])).toEqual([...OLD_TYPES.map((type, i) => [`activity-${9 - i}`, type]), [expect.any(String), 'checklist']]);
    expect(entries[1]?.changes).toEqual({ taskTitle: { from: 'Older task', to: 'Old task' } });
    expect(entries.at(-1)?.checklist).toEqual({ action: 'added', text: 'New item' });
  });

  it('goes back down: checklist entries are removed and the type is refused again; up again keeps the rest', async () => {
    const cookie = await signIn(t, { email: user.email, password: PASSWORD });
    expect((await t.request('POST', `/api/tasks/${taskId}/checklist`, { cookie, body: { text: 'Another' } })).status).toBe(201);
    await t.app.close();
    const db = openUnmigrated(databaseUrl);
    try {
      const migrator = await migratorOf(db);
      const down = await migrator.migrateTo('0012-task-details');
      expect(down.error).toBeUndefined();
      const types = await sql<{ type: string }>`select type from task_activity order by seq`.execute(db);
      expect(types.rows.map((row) => row.type)).toEqual([...OLD_TYPES]);
      await expect(
        sql`insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes)
          values ('activity-x', ${taskId}, 'checklist', null, 'X', 'x@example.test', ${at(50)}, null)`.execute(db),
      ).rejects.toThrow(/check/i);
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect((await sql<{ n: number | string }>`select count(*) as n from task_activity`.execute(db)).rows[0]?.n).toEqual(isPostgres ? '5' : 5);
    } finally {
      await db.destroy();
    }
  });
});
