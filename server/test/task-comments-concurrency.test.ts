import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createTask, uniqueEmail } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';

/**
 * A comment written while its task is being reassigned: the comment write takes the task row
 * lock task writes take, so its event goes to the audience of the task as it commits. The
 * reassignment is held open in a transaction of the test (holding the row lock), so the
 * interleaving happens every run instead of by chance.
 */
const t = useTestApp();

/**
 * Sends `send()` while a reassignment of the task to `to` is in flight (row changed and locked,
 * not committed), waits until the request waits for the row lock (or has answered: a write that
 * takes no lock), then commits the reassignment; resolves with the answer.
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
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%with task as (select%'`.execute(t.app.db);
      if (state.settled || (rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
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

    const { rows } = await sql<{ audience: string }>`select audience from events where type = 'comment.created' and task_id = ${task._id}`.execute(t.app.db);
    expect(rows.map((r) => JSON.parse(r.audience) as string[])).toEqual([[ada.email, carol]]);
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
