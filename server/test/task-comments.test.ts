import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import type { Activity, Comment } from '#shared/schemas/comments.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { SECOND, useTestApp } from './helpers.ts';
import { openStream } from './sse-client.ts';

const t = useTestApp();

const commentsOf = (cookie: string, taskId: string) => t.request('GET', `/api/tasks/${taskId}/comments`, { cookie });
const post = (cookie: string, taskId: string, body: unknown) => t.request('POST', `/api/tasks/${taskId}/comments`, { cookie, body });
const edit = (cookie: string, taskId: string, commentId: string, body: unknown) =>
  t.request('PATCH', `/api/tasks/${taskId}/comments/${commentId}`, { cookie, body });
const remove = (cookie: string, taskId: string, commentId: string) => t.request('DELETE', `/api/tasks/${taskId}/comments/${commentId}`, { cookie });
const activityOf = (cookie: string, taskId: string) => t.request('GET', `/api/tasks/${taskId}/activity`, { cookie });

const comments = (res: { json: unknown }) => (res.json as { data: { comments: Comment[] } }).data.comments;
const comment = (res: { json: unknown }) => (res.json as { data: { comment: Comment } }).data.comment;
const activity = (res: { json: unknown }) => (res.json as { data: { activity: Activity[] } }).data.activity;

/** A task created by Alice for Bob, and Carol who cannot see it. */
async function scene() {
  const alice = await createSignedInUser(t);
  const bob = await createSignedInUser(t);
  const carol = await createSignedInUser(t);
  const task = await createTask(t, alice.cookie, { assignee: bob.user.email });
  return { alice, bob, carol, task };
}

describe('comments', () => {
  it('creator and assignee post comments (trimmed); both read them oldest first', async () => {
    const { alice, bob, task } = await scene();
    const first = await post(alice.cookie, task._id, { body: '  First!\nSecond line  ' });
    expect(first.status, first.body).toBe(201);
    const now = t.clock.now().toISOString();
    expect(comment(first)).toEqual({
      _id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as string,
      taskId: task._id,
      body: 'First!\nSecond line',
      author: { fullName: alice.user.fullName, email: alice.user.email },
      createdAt: now,
      updatedAt: now,
      mentions: [],
    });
    // Same instant: insertion order still decides.
    const second = await post(bob.cookie, task._id, { body: '<b>plain</b>' });
    expect(second.status).toBe(201);
    for (const who of [alice, bob]) {
      const res = await commentsOf(who.cookie, task._id);
      expect(res.status).toBe(200);
      expect(comments(res)).toEqual([comment(first), comment(second)]);
    }
  });

  it(`refuses an empty body (after trimming) and one over ${LIMITS.commentMax} characters; accepts exactly that many`, async () => {
    const { alice, task } = await scene();
    for (const body of ['', '   \n ', 'x'.repeat(LIMITS.commentMax + 1)]) {
      const res = await post(alice.cookie, task._id, { body });
      expect(res.status).toBe(400);
      expect(res.json.errors.map((e) => e.field)).toEqual(['body']);
    }
    expect(comments(await commentsOf(alice.cookie, task._id))).toEqual([]);
    expect((await post(alice.cookie, task._id, { body: 'y'.repeat(LIMITS.commentMax) })).status).toBe(201);
  });

  it('only the author edits or deletes a comment: 403 for the other person who sees the task', async () => {
    const { alice, bob, task } = await scene();
    const mine = comment(await post(alice.cookie, task._id, { body: 'Original' }));
    t.clock.advance(SECOND);

    const forbidden = await edit(bob.cookie, task._id, mine._id, { body: 'Hijacked' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.code).toBe('FORBIDDEN');
    expect((await remove(bob.cookie, task._id, mine._id)).status).toBe(403);

    const edited = await edit(alice.cookie, task._id, mine._id, { body: ' Edited ' });
    expect(edited.status).toBe(200);
    expect(comment(edited)).toEqual({ ...mine, body: 'Edited', updatedAt: t.clock.now().toISOString() });
    expect(comments(await commentsOf(bob.cookie, task._id))).toEqual([comment(edited)]);

    const deleted = await remove(alice.cookie, task._id, mine._id);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(comments(await commentsOf(alice.cookie, task._id))).toEqual([]);
    expect((await remove(alice.cookie, task._id, mine._id)).status).toBe(404);
  });

  it('answers 404 on every call to a user who cannot see the task, as for a missing task, and changes nothing', async () => {
    const { alice, carol, task } = await scene();
    const mine = comment(await post(alice.cookie, task._id, { body: 'Private' }));
    const calls = (taskId: string) => [
      commentsOf(carol.cookie, taskId),
      post(carol.cookie, taskId, { body: 'Hello' }),
      edit(carol.cookie, taskId, mine._id, { body: 'Changed' }),
      remove(carol.cookie, taskId, mine._id),
      activityOf(carol.cookie, taskId),
    ];
    const hidden = await Promise.all(calls(task._id));
    const missing = await Promise.all(calls('AAAAAAAAAAAAAAAAAAAAAA'));
    hidden.forEach((res, i) => {
      expect(res.status, `call ${i}`).toBe(404);
      expect(res.json).toEqual(missing[i]!.json);
    });
    expect(comments(await commentsOf(alice.cookie, task._id))).toEqual([mine]);
    expect(activity(await activityOf(alice.cookie, task._id)).map((a) => a.type)).toEqual(['created', 'commented']);
  });

  it('answers 404 for a comment of another task, and 401 without a session', async () => {
    const { alice, task } = await scene();
    const other = await createTask(t, alice.cookie);
    const onOther = comment(await post(alice.cookie, other._id, { body: 'Elsewhere' }));
    expect((await edit(alice.cookie, task._id, onOther._id, { body: 'x' })).status).toBe(404);
    expect((await remove(alice.cookie, task._id, onOther._id)).status).toBe(404);
    expect((await t.request('GET', `/api/tasks/${task._id}/comments`)).status).toBe(401);
    expect((await t.request('GET', `/api/tasks/${task._id}/activity`)).status).toBe(401);
  });

  it('goes away with its task', async () => {
    const { alice, task } = await scene();
    await post(alice.cookie, task._id, { body: 'Soon gone' });
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: alice.cookie })).status).toBe(204);
    expect((await commentsOf(alice.cookie, task._id)).status).toBe(404);
  });
});

describe('GET /api/tasks/:id/activity', () => {
  it('lists a comment as commented, oldest first, with who and when', async () => {
    const { alice, bob, task } = await scene();
    t.clock.advance(SECOND);
    await post(bob.cookie, task._id, { body: 'On it' });
    const res = await activityOf(alice.cookie, task._id);
    expect(res.status).toBe(200);
    const entries = activity(res);
    expect(entries.map((a) => a.type)).toEqual(['created', 'commented']);
    expect(entries[1]).toEqual({
      _id: expect.any(String) as string,
      type: 'commented',
      by: { fullName: bob.user.fullName, email: bob.user.email },
      at: t.clock.now().toISOString(),
    });
  });
});

describe('activity of task writes', () => {
  it('records created, updated with {field: {from, to}} for tracked fields, completed and reopened, by whoever did it', async () => {
    const { alice, bob, task } = await scene();
    const patch = (cookie: string, body: unknown) => t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body });
    const deadline = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    t.clock.advance(SECOND);
    expect((await patch(alice.cookie, { taskTitle: 'Renamed task', priority: 'urgent', deadline, description: 'Details' })).status).toBe(200);
    // The whole task sent back unchanged writes nothing.
    const current = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: alice.cookie })).json.data.task;
    expect((await patch(alice.cookie, current)).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await patch(bob.cookie, { status: 'done' })).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await patch(bob.cookie, { status: 'todo', workTitle: 'Ops' })).status).toBe(200);

    const entries = activity(await activityOf(bob.cookie, task._id));
    const aliceBy = { fullName: alice.user.fullName, email: alice.user.email };
    const bobBy = { fullName: bob.user.fullName, email: bob.user.email };
    expect(entries.map(({ type, by, changes }) => ({ type, by, changes }))).toEqual([
      { type: 'created', by: aliceBy, changes: undefined },
      {
        type: 'updated',
        by: aliceBy,
        changes: {
          taskTitle: { from: task.taskTitle, to: 'Renamed task' },
          description: { from: '', to: 'Details' },
          priority: { from: 'normal', to: 'urgent' },
          deadline: { from: null, to: deadline },
        },
      },
      { type: 'completed', by: bobBy, changes: undefined },
      { type: 'updated', by: bobBy, changes: { workTitle: { from: '', to: 'Ops' } } },
      { type: 'reopened', by: bobBy, changes: undefined },
    ]);
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort());
  });

  it('records a reassignment, and the new assignee reads the log while the old one gets 404', async () => {
    const { alice, bob, carol, task } = await scene();
    expect((await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: alice.cookie, body: { assignee: carol.user.email } })).status).toBe(200);
    const entries = activity(await activityOf(carol.cookie, task._id));
    expect(entries.at(-1)?.changes).toEqual({ assignee: { from: bob.user.email, to: carol.user.email } });
    expect((await activityOf(bob.cookie, task._id)).status).toBe(404);
  });
});

describe('comment events', () => {
  it('sends comment.created, comment.updated and comment.deleted {taskId, comment, by} to creator and assignee only', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { alice, bob, carol, task } = await scene();
    const streams = await Promise.all([alice, bob, carol].map((who) => openStream(base, who.cookie)));
    const [aliceStream, bobStream, carolStream] = streams;
    const created = comment(await post(bob.cookie, task._id, { body: 'Hello' }));
    const edited = comment(await edit(bob.cookie, task._id, created._id, { body: 'Hello again' }));
    expect((await remove(bob.cookie, task._id, created._id)).status).toBe(204);
    const by = { fullName: bob.user.fullName, email: bob.user.email };
    for (const stream of [aliceStream!, bobStream!]) {
      // (Alice, the creator, is also told of the comment in the app: notifications-types.test.ts.)
      const next = () => stream.nextOf('comment.created', 'comment.updated', 'comment.deleted');
      const events = [await next(), await next(), await next()];
      expect(events.map((e) => ({ event: e.event, json: e.json }))).toEqual([
        { event: 'comment.created', json: { taskId: task._id, comment: created, by } },
        { event: 'comment.updated', json: { taskId: task._id, comment: edited, by } },
        { event: 'comment.deleted', json: { taskId: task._id, comment: { _id: created._id }, by } },
      ]);
    }
    // Carol's first event is about her own task: nothing about the comments came before it.
    const own = await createTask(t, carol.cookie);
    const first = await carolStream!.next();
    expect(first.event).toBe('task.created');
    expect((first.json as { task: { _id: string } }).task._id).toBe(own._id);
    for (const stream of streams) stream.close();
  });
});
