import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment } from '#shared/schemas/comments.ts';
import { newId } from '../db/ids.ts';
import { sweep } from '../plugins/housekeeping.ts';
import { IDEMPOTENCY_SWEEP_BATCH } from '../repositories/idempotency-repository.ts';
import { createSignedInUser, createTask, insertBoard, uniqueEmail } from './factories.ts';
import { insertLabels } from './labels-support.ts';
import { DAY, HOUR, isPostgres, MINUTE, untilWaitingOnLock, useTestApp, type Response } from './helpers.ts';
import { withRoundTrips } from './round-trips.ts';
import { createToken, withToken } from './tokens-support.ts';
import { addWebhook } from './webhooks-support.ts';

/**
 * `Idempotency-Key` on the three creates a device may send again after losing the answer
 * (POST /api/tasks, POST /api/tasks/:id/comments, POST /api/tasks/:id/checklist): a repeat by the same person within 24 hours
 * answers the first answer again and writes nothing; only successful answers are remembered.
 */
const CORS_ORIGIN = 'https://board.example.org';
const t = useTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', CORS_ORIGINS: CORS_ORIGIN } });

const createWith = (cookie: string, key: string | undefined, body: Record<string, unknown>) =>
  t.request('POST', '/api/tasks', { cookie, body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });
const commentWith = (cookie: string, key: string, taskId: string, body: string) =>
  t.request('POST', `/api/tasks/${taskId}/comments`, { cookie, body: { body }, headers: { 'idempotency-key': key } });
const commentOf = (res: Response) => (res.json as unknown as { data: { comment: Comment } }).data.comment;

const tasksBy = (userId: string) => t.app.db.selectFrom('tasks').select('id').where('createdBy', '=', userId).execute();
const rowsOf = async (table: 'events' | 'taskActivity' | 'comments' | 'notifications', column: 'taskId', id: string) =>
  (await t.app.db.selectFrom(table).select(column).where(column, '=', id).execute()).length;
const eventsOf = (type: string, taskId: string) => t.app.db.selectFrom('events').select('id').where('type', '=', type).where('subjectId', '=', taskId).execute();
const outboxTo = (email: string, kind: string) => t.app.db.selectFrom('outbox').select('id').where('toEmail', '=', email).where('kind', '=', kind).execute();

/** The same answer: status and JSON text byte for byte; the repeat says it is one. */
function expectReplay(first: Response, repeat: Response) {
  expect(repeat.status).toBe(first.status);
  expect(repeat.body).toBe(first.body);
  expect(repeat.headers['content-type']).toBe(first.headers['content-type']);
  expect(repeat.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
}

/** Alice's team board (Bob a member) with a webhook that wants task and comment creations. */
async function team() {
  const alice = await createSignedInUser(t, { fullName: 'Alice Admin' });
  const bob = await createSignedInUser(t, { fullName: 'Bob Member' });
  const board = await insertBoard(t, alice.user, [{ who: bob.user, role: 'member' }]);
  const { webhook } = await addWebhook(t, alice.cookie, board.id, 'http://127.0.0.1:9/hook', ['task.created', 'comment.created']);
  const deliveries = async () => (await t.app.db.selectFrom('outbox').select('id').where('webhookId', '=', webhook._id).execute()).length;
  return { alice, bob, board, deliveries };
}

describe('POST /api/tasks with Idempotency-Key', () => {
  it('answers a repeat with the first answer and writes nothing more: one task, event, activity, mail, notification, delivery', async () => {
    const { alice, bob, board, deliveries } = await team();
    const body = { taskTitle: 'Fix the bridge', assignee: bob.user.email, boardId: board.id, priority: 'high' };
    const first = await createWith(alice.cookie, 'key-1', body);
    expect(first.status, first.body).toBe(201);
    expect(first.json.message).toBe(SERVER_MESSAGES.taskCreated);
    const repeat = await createWith(alice.cookie, 'key-1', body);
    expectReplay(first, repeat);

    const task = first.json.data.task;
    expect(await tasksBy(alice.user.id)).toEqual([{ id: task._id }]);
    expect(await eventsOf('task.created', task._id)).toHaveLength(1);
    expect(await rowsOf('taskActivity', 'taskId', task._id)).toBe(1);
    expect(await rowsOf('notifications', 'taskId', task._id)).toBe(1);
    expect(await outboxTo(bob.user.email, 'assigned')).toHaveLength(1);
    expect(await deliveries()).toBe(1);
    await t.app.outbox.drain();
    expect(t.mail.to(bob.user.email).filter((mail) => mail.subject.includes('Fix the bridge'))).toHaveLength(1);
  });

  it('keeps a key per person: the same key from two people makes two tasks', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const body = { taskTitle: 'Same key', assignee: uniqueEmail() };
    const a = await createWith(alice.cookie, 'shared-key', body);
    const b = await createWith(bob.cookie, 'shared-key', body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.data.task._id).not.toBe(b.json.data.task._id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('changes nothing without the header: each request creates', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = { taskTitle: 'No key', assignee: uniqueEmail() };
    expect((await createWith(cookie, undefined, body)).status).toBe(201);
    expect((await createWith(cookie, undefined, body)).status).toBe(201);
    expect(await tasksBy(user.id)).toHaveLength(2);
  });

  it('answers 400 VALIDATION_FAILED naming the header to an empty, too long or non-ASCII key, and writes nothing', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = { taskTitle: 'Bad key', assignee: uniqueEmail() };
    for (const key of ['', 'x'.repeat(LIMITS.idempotencyKeyMax + 1), 'clé', 'tab\tin']) {
      const res = await createWith(cookie, key, body);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.json).toEqual({
        status: 'fail',
        code: 'VALIDATION_FAILED',
        message: SERVER_MESSAGES.idempotencyKeyInvalid,
        errors: [{ field: 'Idempotency-Key', message: SERVER_MESSAGES.idempotencyKeyInvalid }],
      });
    }
    expect(await tasksBy(user.id)).toEqual([]);
    expect((await createWith(cookie, 'k'.repeat(LIMITS.idempotencyKeyMax), body)).status).toBe(201);
    expect((await createWith(cookie, 'a key with spaces: {1}', body)).status).toBe(201);
  });

  it('remembers only successes: after a 400, a 404 or a 403 the same key creates', async () => {
    const { alice, bob, board } = await team();
    const viewer = await createSignedInUser(t);
    await t.app.db.insertInto('boardMembers').values({ boardId: board.id, email: viewer.user.email, userId: viewer.user.id, role: 'viewer', addedAt: t.clock.now().toISOString(), addedByName: 'Alice Admin', addedByEmail: alice.user.email }).execute();
    const good = { taskTitle: 'Second try', assignee: bob.user.email };

    const invalid = await createWith(alice.cookie, 'retry', { ...good, deadline: new Date(t.clock.now().getTime() - HOUR).toISOString() });
    expect(invalid.status).toBe(400);
    const missingBoard = await createWith(alice.cookie, 'retry', { ...good, boardId: newId() });
    expect(missingBoard.status).toBe(404);
    const created = await createWith(alice.cookie, 'retry', good);
    expect(created.status, created.body).toBe(201);
    expectReplay(created, await createWith(alice.cookie, 'retry', good));

    // A refusal inside the write (the viewer's role is read by the insert) rolls the key back too.
    const refused = await createWith(viewer.cookie, 'viewer-key', { ...good, boardId: board.id });
    expect(refused.status).toBe(403);
    expect((await createWith(viewer.cookie, 'viewer-key', good)).status).toBe(201);
    expect(await tasksBy(alice.user.id)).toHaveLength(1);
  });

  it('answers a repeat before checking the body again: a deadline passed since is still the same create', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = { taskTitle: 'Due soon', assignee: uniqueEmail(), deadline: new Date(t.clock.now().getTime() + HOUR).toISOString() };
    const first = await createWith(cookie, 'due', body);
    expect(first.status, first.body).toBe(201);
    t.clock.advance(2 * HOUR);
    expectReplay(first, await createWith(cookie, 'due', body));
    expect(await tasksBy(user.id)).toHaveLength(1);
  });

  it('counts a key for 24 hours: a repeat after that creates anew', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = { taskTitle: 'Daily', assignee: uniqueEmail() };
    const first = await createWith(cookie, 'day', body);
    t.clock.advance(DAY - MINUTE);
    expectReplay(first, await createWith(cookie, 'day', body));
    t.clock.advance(MINUTE);
    const later = await createWith(cookie, 'day', body);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json.data.task._id).not.toBe(first.json.data.task._id);
    expect(await tasksBy(user.id)).toHaveLength(2);
    // The key now answers with the new task.
    expectReplay(later, await createWith(cookie, 'day', body));
  });

  it('is the same key for an API token and a session of one person', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const token = withToken(t, (await createToken(t, cookie, { access: 'write' })).secret);
    const body = { taskTitle: 'By script', assignee: uniqueEmail() };
    const first = await token('POST', '/api/tasks', { body, headers: { 'idempotency-key': 'script-1' } });
    expect(first.status, first.body).toBe(201);
    expectReplay(first, await createWith(cookie, 'script-1', body));
    expect(await tasksBy(user.id)).toHaveLength(1);
  });

  it('makes one task of concurrent requests with one key; each answers the same', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, user);
    const [label] = await insertLabels(t, board.id, 'Raced');
    // Labels are read between the key's lookup and the write: the requests' lookups all miss.
    const body = { taskTitle: 'Raced', assignee: uniqueEmail(), boardId: board.id, labelIds: [label?._id] };
    const answers = await Promise.all([1, 2, 3, 4].map(() => createWith(cookie, 'race', body)));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    const tasks = await tasksBy(user.id);
    expect(tasks).toHaveLength(1);
    expect(await eventsOf('task.created', tasks[0]?.id ?? '')).toHaveLength(1);
  });
});

describe('POST /api/tasks/:id/comments with Idempotency-Key', () => {
  it('answers a repeat with the first answer: one comment, event, activity, mention mail, delivery', async () => {
    const { alice, bob, board, deliveries } = await team();
    const task = await createTask(t, alice.cookie, { boardId: board.id, assignee: alice.user.email });
    const before = await deliveries();
    const text = `Please look, @${bob.user.email}`;
    const first = await commentWith(alice.cookie, 'c-1', task._id, text);
    expect(first.status, first.body).toBe(201);
    expect(commentOf(first).mentions).toEqual([bob.user.email]);
    expectReplay(first, await commentWith(alice.cookie, 'c-1', task._id, text));

    expect(await rowsOf('comments', 'taskId', task._id)).toBe(1);
    expect(await eventsOf('comment.created', task._id)).toHaveLength(1);
    const activity = await t.app.db.selectFrom('taskActivity').select('type').where('taskId', '=', task._id).where('type', '=', 'commented').execute();
    expect(activity).toHaveLength(1);
    expect(await outboxTo(bob.user.email, 'mentioned')).toHaveLength(1);
    expect(await deliveries()).toBe(before + 1);
    await t.app.outbox.drain();
    expect(t.mail.to(bob.user.email).filter((mail) => mail.subject.includes(' mentioned you on '))).toHaveLength(1);
  });

  it('makes one comment of concurrent requests with one key', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const answers = await Promise.all([1, 2, 3].map(() => commentWith(cookie, 'c-race', task._id, 'Only once')));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(await rowsOf('comments', 'taskId', task._id)).toBe(1);
    expect(await eventsOf('comment.created', task._id)).toHaveLength(1);
  });

  it('remembers only successes: after a 404 the same key comments', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    expect((await commentWith(cookie, 'c-retry', newId(), 'Lost')).status).toBe(404);
    expect((await commentWith(cookie, 'c-retry', task._id, '')).status).toBe(400);
    expect((await commentWith(cookie, 'c-retry', task._id, 'Found')).status).toBe(201);
  });

  it('refuses a key used on another call with 422 IDEMPOTENCY_KEY_REUSED, and writes nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const created = await createWith(cookie, 'one-use', { taskTitle: 'Keyed', assignee: uniqueEmail() });
    const task = created.json.data.task;
    const other = await createTask(t, cookie);
    const reused = { status: 'fail', code: 'IDEMPOTENCY_KEY_REUSED', message: SERVER_MESSAGES.idempotencyKeyReused };

    const onComment = await commentWith(cookie, 'one-use', task._id, 'Hello');
    expect(onComment.status).toBe(422);
    expect(onComment.json).toEqual(reused);
    expect((await commentWith(cookie, 'c-task', task._id, 'Hello')).status).toBe(201);
    const onOtherTask = await commentWith(cookie, 'c-task', other._id, 'Hello');
    expect(onOtherTask.status).toBe(422);
    expect(onOtherTask.json).toEqual(reused);
    const onCreate = await createWith(cookie, 'c-task', { taskTitle: 'Keyed', assignee: uniqueEmail() });
    expect(onCreate.json).toEqual(reused);
    expect(await rowsOf('comments', 'taskId', other._id)).toBe(0);
    expect(await rowsOf('comments', 'taskId', task._id)).toBe(1);
  });
});

describe('POST /api/tasks/:id/checklist with Idempotency-Key', () => {
  const addWith = (cookie: string, key: string, taskId: string, text: string) =>
    t.request('POST', `/api/tasks/${taskId}/checklist`, { cookie, body: { text }, headers: { 'idempotency-key': key } });
  const itemsOf = async (taskId: string) => (await t.app.db.selectFrom('checklistItems').select('id').where('taskId', '=', taskId).execute()).length;

  it('answers a repeat with the first answer: one item, one version, one event and activity entry', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const first = await addWith(cookie, 'i-1', task._id, 'Pack the tent');
    expect(first.status, first.body).toBe(201);
    expectReplay(first, await addWith(cookie, 'i-1', task._id, 'Pack the tent'));
    expect(await itemsOf(task._id)).toBe(1);
    const after = await t.request('GET', `/api/tasks/${task._id}`, { cookie });
    expect(after.json.data.task).toMatchObject({ version: task.version + 1, checklist: { done: 0, total: 1 } });
    expect(await eventsOf('task.updated', task._id)).toHaveLength(1);
    const activity = await t.app.db.selectFrom('taskActivity').select('type').where('taskId', '=', task._id).where('type', '=', 'checklist').execute();
    expect(activity).toHaveLength(1);
  });

  it('makes one item of concurrent requests with one key', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const answers = await Promise.all([1, 2, 3].map(() => addWith(cookie, 'i-race', task._id, 'Only once')));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(await itemsOf(task._id)).toBe(1);
  });

  it('remembers only successes, and refuses the key on another task or call with 422', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const other = await createTask(t, cookie);
    expect((await addWith(cookie, 'i-retry', newId(), 'Lost')).status).toBe(404);
    expect((await addWith(cookie, 'i-retry', task._id, '')).status).toBe(400);
    expect((await addWith(cookie, 'i-retry', task._id, 'Found')).status).toBe(201);
    const onOtherTask = await addWith(cookie, 'i-retry', other._id, 'Found');
    expect(onOtherTask.status).toBe(422);
    expect(onOtherTask.json).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await commentWith(cookie, 'i-retry', task._id, 'Hello')).status).toBe(422);
    expect(await itemsOf(other._id)).toBe(0);
    expect(await itemsOf(task._id)).toBe(1);
  });
});

describe('the key row (idempotency repository)', () => {
  // SQLite runs each request's transaction without yielding to another request (one connection,
  // synchronous statements), so there the lost race of the requests above cannot happen; the
  // claim's own rule is checked here on both databases.
  it('claims a free or expired key, not a live one, and a rolled-back claim leaves the key free', async () => {
    const { user } = await createSignedInUser(t);
    const repo = t.app.idempotencyRepository;
    const now = t.clock.now();
    const since = new Date(now.getTime() - DAY).toISOString();
    const row = (key: string, createdAt: string) => ({ userId: user.id, key, scope: 'POST /api/tasks', createdAt });
    await t.app.db.insertInto('idempotencyKeys').values([
      { ...row('live', now.toISOString()), status: 201, body: '{"live":true}' },
      { ...row('expired', since), status: 201, body: '{"expired":true}' },
    ]).execute();

    const claims = await t.app.db.transaction().execute(async (trx) => [
      await repo.claim(row('live', now.toISOString()), since, trx),
      await repo.claim(row('expired', now.toISOString()), since, trx),
      await repo.claim(row('new', now.toISOString()), since, trx),
    ]);
    expect(claims).toEqual([false, true, true]);
    expect(await repo.find(user.id, 'live', since)).toEqual({ scope: 'POST /api/tasks', status: 201, body: '{"live":true}' });
    expect(await repo.find(user.id, 'expired', since)).toEqual({ scope: 'POST /api/tasks', status: 0, body: '' });

    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await repo.claim(row('rolled-back', now.toISOString()), since, trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await repo.find(user.id, 'rolled-back', since)).toBeUndefined();
  });
});

describe('a request while another holds its key (PostgreSQL)', () => {
  it.runIf(isPostgres)('waits for the holder to commit, then answers what it stored', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const repo = t.app.idempotencyRepository;
    const now = t.clock.now().toISOString();
    const since = new Date(t.clock.now().getTime() - DAY).toISOString();
    const stored = JSON.stringify({ status: 'success', message: 'Stored by the first request.' });
    let waiting: Promise<Response> | undefined;
    // The first request's transaction, held open by hand: the key claimed, the answer not yet written.
    await t.app.db.transaction().execute(async (trx) => {
      expect(await repo.claim({ userId: user.id, key: 'held', scope: 'POST /api/tasks', createdAt: now }, since, trx)).toBe(true);
      waiting = createWith(cookie, 'held', { taskTitle: 'Second', assignee: uniqueEmail() });
      await untilWaitingOnLock(t, '%idempotency_keys%');
      await repo.answer(user.id, 'held', 201, stored, trx);
    });
    const res = await waiting;
    expect(res?.status).toBe(201);
    expect(res?.body).toBe(stored);
    expect(res?.headers['idempotent-replayed']).toBe('true');
    expect(await tasksBy(user.id)).toEqual([]);
  });
});

describe('Idempotency-Key in the API document and CORS, housekeeping, cost', () => {
  it('documents the header on the three creates in the OpenAPI document', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    for (const path of ['/api/tasks', '/api/tasks/{id}/comments', '/api/tasks/{id}/checklist']) {
      const post = doc.json.paths[path]?.post as { parameters?: { in: string; name: string; required?: boolean; description?: string }[] } | undefined;
      const header = post?.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
      expect(header, path).toBeDefined();
      expect(header?.required ?? false, path).toBe(false);
      expect(header?.description, path).toContain('24 hours');
    }
  });

  it('lets CORS_ORIGINS clients send the header (the preflight grants it)', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/tasks',
      headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key' },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase().split(',')).toContain('idempotency-key');
  });

  it('deletes the answers older than 24 hours, a batch at a time, and keeps the others', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const old = new Date(t.clock.now().getTime() - DAY - 1).toISOString();
    const rows = Array.from({ length: IDEMPOTENCY_SWEEP_BATCH + 5 }, (_, i) => ({ userId: user.id, key: `old-${i}`, scope: 'POST /api/tasks', status: 201, body: '{}', createdAt: old }));
    for (let i = 0; i < rows.length; i += 200) await t.app.db.insertInto('idempotencyKeys').values(rows.slice(i, i + 200)).execute();
    const fresh = await createWith(cookie, 'fresh', { taskTitle: 'Kept', assignee: uniqueEmail() });
    const deleted = await sweep(t.app);
    expect(deleted.idempotencyKeys).toBe(IDEMPOTENCY_SWEEP_BATCH + 5);
    const left = await t.app.db.selectFrom('idempotencyKeys').select('key').where('userId', '=', user.id).execute();
    expect(left).toEqual([{ key: 'fresh' }]);
    expectReplay(fresh, await createWith(cookie, 'fresh', { taskTitle: 'Kept', assignee: uniqueEmail() }));
  });

  it('goes with a deleted account', async () => {
    const { user, cookie } = await createSignedInUser(t);
    await createWith(cookie, 'mine', { taskTitle: 'Mine', assignee: user.email });
    const res = await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } });
    expect(res.status, res.body).toBe(204);
    expect(await t.app.db.selectFrom('idempotencyKeys').select('key').where('userId', '=', user.id).execute()).toEqual([]);
  });

  // Round trips to PostgreSQL counted by a proxy in front of it (bench/lib/delay-proxy.ts, no delay).
  it.runIf(isPostgres)('adds no query to a create without the header; one with it costs five more round trips', async () => {
    await withRoundTrips(t, async (trips) => {
      const { user, cookie } = await createSignedInUser(t);
      /**
       * The trips of one create (assigned to oneself: no mail) and of what its commit wakes (the
       * event log read), once they have settled. Other work of the app (the outbox worker's
       * poll) only ever adds trips, so the least of a few runs is the create's own.
       */
      const tripsOf = async (key: () => string | undefined) => {
        const runs: number[] = [];
        for (let i = 0; i < 4; i++) {
          const before = trips();
          const res = await createWith(cookie, key(), { taskTitle: 'Counted', assignee: user.email });
          expect(res.status, res.body).toBe(201);
          // The one wait for a time left in the API tests, on purpose: the trips counted include
          // the event log reads that the commit and its NOTIFY wake. The second read finds nothing
          // new and changes nothing that could be observed, and asking the app would add trips.
          // A read that comes late only adds to the next run, and the least of the runs is kept.
          await new Promise((resolve) => setTimeout(resolve, 100));
          runs.push(trips() - before);
        }
        return Math.min(...runs);
      };
      // The session read, the task's one statement (its own transaction), and the event log read
      // twice (woken by the commit, then by its NOTIFY): 4, as before the header existed (measured
      // on the commit before it). The proxy may count two reads that overlap on two connections as
      // one trip, never one as two: so at most 4.
      const plain = await tripsOf(() => undefined);
      expect(plain).toBeLessThanOrEqual(4);
      // Plus: the read of the key, BEGIN, the claim, the answer, COMMIT (5; a background read may
      // overlap one of them).
      let n = 0;
      const keyed = await tripsOf(() => `counted-${++n}`);
      expect(keyed).toBeGreaterThanOrEqual(plain + 4);
      expect(keyed).toBeLessThanOrEqual(plain + 5);
    });
  });
});
