import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createTask, uniqueEmail } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';

/**
 * Writes that meet a change of the same task in flight. A task or comment write plans from an
 * unlocked read and writes at the version it read; the change in flight is held open in a
 * transaction of the test (holding the row lock), so the interleaving happens every run instead
 * of by chance: the write waits for the row, finds another version, and is planned again under
 * the lock.
 */
const t = useTestApp();

/**
 * Sends `send()` while a reassignment of the task to `to` is in flight (row changed and locked,
 * not committed), waits until the request's write waits for the row lock (or has answered: a
 * write that takes no lock), then commits the reassignment; resolves with the answer.
 */
async function duringReassignment<T>(taskId: string, to: string, send: () => Promise<T>): Promise<T> {
  const reassign = await t.app.db.startTransaction().execute();
  try {
    await sql`update tasks set assignee_email = ${to}, version = version + 1 where id = ${taskId}`.execute(reassign);
    const answer = send();
    const state = { settled: false };
    void answer.finally(() => {
      state.settled = true;
    });
    const blockedOrDone = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%with task as (%'`.execute(t.app.db);
      return state.settled || (rows[0]?.n ?? 0) > 0;
    };
    await expect.poll(blockedOrDone, { message: 'the request waits for the lock (or has answered)', timeout: 10_000, interval: 10 }).toBe(true);
    await reassign.commit().execute();
    return await answer;
  } finally {
    await reassign.rollback().execute().catch(() => undefined);
  }
}

describe.runIf(isPostgres)('comment during a reassignment (PostgreSQL)', () => {
  it('never addresses the comment event to the assignee the task is being taken from', async () => {
    const { user: ada, cookie } = await createSignedInUser(t);
    const bob = uniqueEmail('bob');
    const carol = uniqueEmail('carol');
    const task = await createTask(t, cookie, { assignee: bob });

    // Ada comments while the task is being reassigned from Bob to Carol.
    const res = await duringReassignment(task._id, carol, () => t.request('POST', `/api/tasks/${task._id}/comments`, { cookie, body: { body: 'Who has this now?' } }));
    expect(res.status, res.body).toBe(201);

    // Addressed to the task's board (Ada's personal board: its id is hers) and to Carol.
    const { rows } = await sql<{ audience: string; boardId: string }>`select audience, board_id as "boardId" from events where type = 'comment.created' and subject_id = ${task._id}`.execute(t.app.db);
    expect(rows.map((r) => [r.boardId, JSON.parse(r.audience) as string[]])).toEqual([[ada.id, [carol]]]);
  });

  it('refuses the comment of an assignee who loses sight of the task meanwhile (404), writing nothing', async () => {
    const { cookie: adaCookie } = await createSignedInUser(t);
    const { user: bob, cookie: bobCookie } = await createSignedInUser(t);
    const task = await createTask(t, adaCookie, { assignee: bob.email });

    const res = await duringReassignment(task._id, uniqueEmail('carol'), () =>
      t.request('POST', `/api/tasks/${task._id}/comments`, { cookie: bobCookie, body: { body: 'Still mine?' } }),
    );
    expect(res.status, res.body).toBe(404);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from comments where task_id = ${task._id}`.execute(t.app.db);
    expect(rows[0]?.n).toBe(0);
  });
});

describe.runIf(isPostgres)('task change during another change (PostgreSQL)', () => {
  it('applies a change without a version on top of the one that committed first: nothing is lost', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { assignee: uniqueEmail('bob') });
    const carol = uniqueEmail('carol');
    const res = await duringReassignment(task._id, carol, () => t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { priority: 'urgent' } }));
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task).toMatchObject({ assignee: carol, priority: 'urgent', version: task.version + 2 });
    const { rows } = await sql<{ type: string; audience: string }>`select type, audience from events where subject_id = ${task._id} and type = 'task.updated' order by id`.execute(t.app.db);
    // The event of the change reaches who sees the task now, not the old assignee.
    expect(JSON.parse(rows.at(-1)?.audience ?? '[]')).toContain(carol);
  });

  it('answers 409 with the current task to a change based on the version that was replaced', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { assignee: uniqueEmail('bob') });
    const carol = uniqueEmail('carol');
    const res = await duringReassignment(task._id, carol, () =>
      t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { priority: 'urgent', version: task.version } }),
    );
    expect(res.status, res.body).toBe(409);
    expect(res.json.data.task).toMatchObject({ assignee: carol, priority: task.priority, version: task.version + 1 });
  });
});
