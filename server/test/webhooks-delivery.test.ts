import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { OUTBOX_POLICY } from '../outbox/policy.ts';
import { WEBHOOK_POLICY } from '../webhooks/webhook-sender.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { DAY, HOUR, MINUTE, useTestApp } from './helpers.ts';
import { labelsTeam } from './labels-support.ts';
import { startReceiver, verifySignature, type Receiver } from './webhook-receiver.ts';
import { addWebhook, deliveriesOf, deliveryRows, webhooksApi } from './webhooks-support.ts';

/**
 * Webhook deliveries against a real receiver on 127.0.0.1 (hence OUTBOUND_ALLOW_PRIVATE) that
 * checks every signature with node:crypto: written with the change or not at all, one per
 * webhook that wants the event, retried with the same webhook-id, failed at once on a 4xx,
 * paused after 24 h of failures with one mail to the board's admins.
 */
const t = useTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
const api = webhooksApi(t);
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver(() => t.clock.now());
});
afterEach(async () => {
  await receiver.close();
});

/** A team's board with a webhook at `path` of the receiver, its secret known to the receiver. */
async function hooked(path: string, events: string[]) {
  const team = await labelsTeam(t);
  const { webhook, secret } = await addWebhook(t, team.admin.cookie, team.board.id, receiver.url(path), events);
  receiver.secrets.set(path, secret);
  return { ...team, webhook, secret };
}
const bodyOf = (raw: string) => JSON.parse(raw) as { type: string; timestamp: string; data: Record<string, unknown> };
const eventPayload = async (taskId: string, type: string) => {
  const row = await t.app.db.selectFrom('events').select('payload').where('subjectId', '=', taskId).where('type', '=', type).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return JSON.parse(row.payload) as unknown;
};
const patchTask = (cookie: string, task: Task, body: Record<string, unknown>) => t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body });

describe('what is written', () => {
  it('one row per webhook that wants the event, signed and delivered with the live event\'s data', async () => {
    const { admin, board, webhook } = await hooked('/a', ['task.created', 'task.deleted']);
    const { webhook: b, secret: secretB } = await addWebhook(t, admin.cookie, board.id, receiver.url('/b'), ['task.updated', 'comment.created']);
    receiver.secrets.set('/b', secretB);
    const { webhook: paused } = await addWebhook(t, admin.cookie, board.id, receiver.url('/paused'), ['task.created', 'task.updated']);
    expect((await api.update(admin.cookie, board.id, paused._id, { active: false })).status).toBe(200);
    const elsewhere = await insertBoard(t, admin.user);
    await addWebhook(t, admin.cookie, elsewhere.id, receiver.url('/elsewhere'), ['task.created', 'task.updated']);

    const task = await createTask(t, admin.cookie, { boardId: board.id });
    expect(await deliveryRows(t, webhook._id)).toHaveLength(1);
    expect(await deliveryRows(t, b._id)).toHaveLength(0);
    const updated = await patchTask(admin.cookie, task, { taskTitle: 'Renamed' });
    expect(updated.status).toBe(200);
    expect((await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie: admin.cookie, body: { body: 'A comment' } })).status).toBe(201);
    await t.app.outbox.drain();

    const a = receiver.at('/a');
    expect(a).toHaveLength(1);
    expect(a[0]!.verified).toBe(true);
    expect(a[0]!.id).toMatch(/^msg_/);
    const created = bodyOf(a[0]!.body);
    expect(created.type).toBe('task.created');
    expect(created.data).toEqual(await eventPayload(task._id, 'task.created'));
    expect(created.timestamp).toBe(t.clock.now().toISOString());

    const atB = receiver.at('/b');
    expect(atB.map((r) => bodyOf(r.body).type).sort()).toEqual(['comment.created', 'task.updated']);
    expect(atB.every((r) => r.verified)).toBe(true);
    expect(bodyOf(atB.find((r) => r.body.includes('task.updated'))!.body).data).toEqual(await eventPayload(task._id, 'task.updated'));
    expect(new Set(atB.map((r) => r.id)).size).toBe(2);
    expect(receiver.at('/paused')).toEqual([]);
    expect(receiver.at('/elsewhere')).toEqual([]);

    const log = deliveriesOf(await api.deliveries(admin.cookie, board.id, b._id));
    expect(log.map((d) => [d.status, d.responseStatus, d.attempts])).toEqual([
      ['delivered', 200, 1],
      ['delivered', 200, 1],
    ]);
    // A signature made with another secret does not verify (the receiver's check is real).
    const r = a[0]!;
    expect(verifySignature(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, r, r.body, Math.floor(t.clock.now().getTime() / 1000))).toBe(false);
  });

  it('writes nothing when the change fails (409)', async () => {
    const { admin, board, webhook } = await hooked('/a', ['task.updated']);
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const stale = await patchTask(admin.cookie, task, { taskTitle: 'Too late', version: task.version + 5 });
    expect(stale.status).toBe(409);
    expect(await deliveryRows(t, webhook._id)).toEqual([]);
  });

  it('tells the board a task left task.deleted and the board it arrived on task.created', async () => {
    const { admin, board } = await hooked('/from', ['task.updated', 'task.deleted']);
    const target = await insertBoard(t, admin.user);
    const { secret } = await addWebhook(t, admin.cookie, target.id, receiver.url('/to'), ['task.updated', 'task.created']);
    receiver.secrets.set('/to', secret);
    // Wants neither: hears nothing of the move.
    await addWebhook(t, admin.cookie, target.id, receiver.url('/updates-only'), ['task.updated']);
    const task = await createTask(t, admin.cookie, { boardId: board.id });

    const moved = await patchTask(admin.cookie, task, { boardId: target.id });
    expect(moved.status).toBe(200);
    await t.app.outbox.drain();
    const by = { fullName: admin.user.fullName, email: admin.user.email };
    const left = receiver.at('/from');
    expect(left.map((r) => r.verified)).toEqual([true]);
    expect(bodyOf(left[0]!.body)).toMatchObject({ type: 'task.deleted', data: { task: { _id: task._id, version: task.version + 1 }, by } });
    expect(Object.keys(bodyOf(left[0]!.body).data.task as object)).toEqual(['_id', 'version']);
    const arrived = receiver.at('/to');
    expect(arrived.map((r) => r.verified)).toEqual([true]);
    expect(bodyOf(arrived[0]!.body).type).toBe('task.created');
    expect(bodyOf(arrived[0]!.body).data).toEqual(await eventPayload(task._id, 'task.updated'));
    expect(arrived[0]!.id).not.toBe(left[0]!.id);
    expect(receiver.at('/updates-only')).toEqual([]);

    // A change on the new board is an update there, and the old board hears nothing of it.
    expect((await patchTask(admin.cookie, moved.json.data.task, { taskTitle: 'Renamed' })).status).toBe(200);
    await t.app.outbox.drain();
    expect(receiver.at('/from')).toHaveLength(1);
    expect(receiver.at('/to').map((r) => bodyOf(r.body).type)).toEqual(['task.created', 'task.updated']);
  });
});

describe('retries and failures', () => {
  it.each([500, 503, 408, 429])('retries a %i with back-off, with the same webhook-id, until it is delivered', async (status) => {
    const { admin, board, webhook } = await hooked('/flaky', ['task.created']);
    receiver.state.answer = () => status;
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    let [row] = await deliveryRows(t, webhook._id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: status });
    const wait = Date.parse(row!.runAt) - t.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(OUTBOX_POLICY.baseDelayMs / 2);
    expect((await t.app.db.selectFrom('webhooks').select('failingSince').where('id', '=', webhook._id).executeTakeFirstOrThrow()).failingSince).toBe(t.clock.now().toISOString());

    t.clock.advance(wait);
    await t.app.outbox.drain();
    expect(receiver.at('/flaky')).toHaveLength(2);
    receiver.state.answer = () => 204;
    t.clock.advance(HOUR);
    await t.app.outbox.drain();
    const got = receiver.at('/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);
    // Each attempt is signed at its own time.
    expect(new Set(got.map((r) => r.timestamp)).size).toBe(3);
    [row] = await deliveryRows(t, webhook._id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, responseStatus: 204 });
    // A success clears the failure clock.
    expect((await t.app.db.selectFrom('webhooks').select('failingSince').where('id', '=', webhook._id).executeTakeFirstOrThrow()).failingSince).toBeNull();
    const log = deliveriesOf(await api.deliveries(admin.cookie, board.id, webhook._id));
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204 });
  });

  it.each([400, 401, 404, 410, 422])('fails a %i at once, and redelivery sends it again with the same webhook-id', async (status) => {
    const { admin, board, webhook } = await hooked('/strict', ['task.created']);
    receiver.state.answer = () => status;
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    const [row] = await deliveryRows(t, webhook._id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, responseStatus: status });
    t.clock.advance(DAY);
    await t.app.outbox.drain();
    expect(receiver.at('/strict')).toHaveLength(1);

    receiver.state.answer = () => 200;
    expect((await api.redeliver(admin.cookie, board.id, webhook._id, row!.id)).status).toBe(202);
    await t.app.outbox.drain();
    const got = receiver.at('/strict');
    expect(got).toHaveLength(2);
    expect(got[1]!.id).toBe(got[0]!.id);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[1]!.verified).toBe(true);
    const log = deliveriesOf(await api.deliveries(admin.cookie, board.id, webhook._id));
    expect(log.map((d) => d.status)).toEqual(['delivered', 'failed']);
  });

  it('retries a receiver that does not answer within the timeout, and one that refuses connections', async () => {
    const policy = WEBHOOK_POLICY as { timeoutMs: number };
    const timeout = policy.timeoutMs;
    policy.timeoutMs = 300;
    try {
      const { admin, board, webhook } = await hooked('/slow', ['task.created']);
      receiver.state.answer = () => 'hang';
      const { webhook: down } = await addWebhook(t, admin.cookie, board.id, 'http://127.0.0.1:9/nothing-listens', ['task.created']);
      await createTask(t, admin.cookie, { boardId: board.id });
      await t.app.outbox.drain();
      expect(receiver.at('/slow')).toHaveLength(1);
      for (const id of [webhook._id, down._id]) {
        const [row] = await deliveryRows(t, id);
        expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
        expect(row!.lastError).not.toBeNull();
      }
    } finally {
      policy.timeoutMs = timeout;
    }
  });

  it('gives a delivery up after 24 hours of retries', async () => {
    const { admin, board, webhook } = await hooked('/down', ['task.created']);
    receiver.state.answer = () => 502;
    await createTask(t, admin.cookie, { boardId: board.id });
    for (let i = 0; i < 40; i++) {
      await t.app.outbox.drain();
      t.clock.advance(HOUR);
    }
    const [row] = await deliveryRows(t, webhook._id);
    expect(row).toMatchObject({ status: 'failed', responseStatus: 502 });
    expect(Date.parse(row!.runAt) - Date.parse(row!.createdAt)).toBeLessThanOrEqual(OUTBOX_POLICY.giveUpAfterMs);
  });
});

describe('pausing after 24 hours of failures', () => {
  it('pauses a webhook whose deliveries all failed for 24 h, mails each admin once, and writes no more rows', async () => {
    const { admin, member, board, webhook } = await hooked('/broken', ['task.created']);
    const second = await createSignedInUser(t);
    await t.app.db.insertInto('boardMembers').values({ boardId: board.id, email: second.user.email, userId: second.user.id, role: 'admin', addedAt: t.clock.now().toISOString(), addedByName: 'x', addedByEmail: admin.user.email }).execute();
    receiver.state.answer = () => 500;
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    const since = t.clock.now().toISOString();

    t.clock.advance(23 * HOUR);
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    let hook = await t.app.db.selectFrom('webhooks').selectAll().where('id', '=', webhook._id).executeTakeFirstOrThrow();
    expect(hook).toMatchObject({ active: 1, failingSince: since });

    t.clock.advance(HOUR + MINUTE);
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    hook = await t.app.db.selectFrom('webhooks').selectAll().where('id', '=', webhook._id).executeTakeFirstOrThrow();
    expect(hook.active).toBe(0);
    for (const who of [admin.user.email, second.user.email]) {
      const mails = t.mail.to(who).filter((m) => m.subject.includes('webhook'));
      expect(mails, who).toHaveLength(1);
      expect(mails[0]!.text).toContain(receiver.url('/broken'));
      expect(mails[0]!.text).toContain(`/boards/${board.id}/settings`);
    }
    expect(t.mail.to(member.user.email).filter((m) => m.subject.includes('webhook'))).toEqual([]);

    // Paused: a change writes no delivery, pending retries are dropped unsent, and no second mail.
    const before = (await deliveryRows(t, webhook._id)).length;
    await createTask(t, admin.cookie, { boardId: board.id });
    expect(await deliveryRows(t, webhook._id)).toHaveLength(before);
    const sent = receiver.at('/broken').length;
    t.clock.advance(2 * HOUR);
    await t.app.outbox.drain();
    expect(receiver.at('/broken')).toHaveLength(sent);
    expect(t.mail.to(admin.user.email).filter((m) => m.subject.includes('webhook'))).toHaveLength(1);

    // Resumed: the failure clock starts again; a success keeps it healthy.
    receiver.state.answer = () => 200;
    expect((await api.update(admin.cookie, board.id, webhook._id, { active: true })).status).toBe(200);
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    hook = await t.app.db.selectFrom('webhooks').selectAll().where('id', '=', webhook._id).executeTakeFirstOrThrow();
    expect(hook).toMatchObject({ active: 1, failingSince: null });
    expect(receiver.at('/broken')).toHaveLength(sent + 1);
  });
});

describe('crash safety', () => {
  it('a worker that dies after sending and before recording: the delivery is sent again with the same webhook-id once its lease runs out', async () => {
    const { board, webhook } = await hooked('/crash', ['task.created']);
    const rowId = newId();
    const now = t.clock.now();
    await t.app.db.transaction().execute(async (trx) => {
      await t.app.webhooksRepository.insertDelivery(
        { id: rowId, webhookId: webhook._id, type: 'task.created', body: JSON.stringify({ type: 'task.created', timestamp: now.toISOString(), data: { board: board.id } }), messageId: `msg_${rowId}`, at: now.toISOString() },
        trx,
      );
      const claimed = await t.app.outboxRepository.claim('dead-worker', now.toISOString(), new Date(now.getTime() + OUTBOX_POLICY.leaseMs).toISOString(), 10, trx, 'webhooks');
      expect(claimed.map((r) => r.id)).toEqual([rowId]);
    });
    const [claimed] = await deliveryRows(t, webhook._id);
    // The dead worker's send reached the receiver; it never recorded it.
    const targets = await t.app.webhooksRepository.targets([webhook._id]);
    expect(await t.app.webhookSender.deliver(claimed!, targets.get(webhook._id))).toMatchObject({ ok: true, responseStatus: 200 });
    await t.app.outbox.drain();
    expect(receiver.at('/crash')).toHaveLength(1);

    t.clock.advance(OUTBOX_POLICY.leaseMs);
    await t.app.outbox.drain();
    const got = receiver.at('/crash');
    expect(got).toHaveLength(2);
    expect(got[1]!.id).toBe(got[0]!.id);
    expect(got[0]!.id).toBe(`msg_${rowId}`);
    expect(got.every((r) => r.verified)).toBe(true);
    expect((await deliveryRows(t, webhook._id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('claims deliveries in batches; closing the app gives back the claimed ones not yet started, due at once and their attempt not counted', async () => {
    const policy = WEBHOOK_POLICY as { timeoutMs: number };
    const timeout = policy.timeoutMs;
    // Longer than any test: a delivery under way ends only when the test answers it, never by
    // the clock (a 1 s time-out let a loaded machine end the first places and start the rest).
    policy.timeoutMs = 120_000;
    try {
      const { board, webhook } = await hooked('/slow', ['task.created']);
      receiver.state.answer = () => 'hang';
      const total = OUTBOX_POLICY.webhookConcurrency + 36;
      const now = t.clock.now().toISOString();
      await t.app.db.transaction().execute(async (trx) => {
        for (let i = 0; i < total; i++) {
          const id = newId();
          await t.app.webhooksRepository.insertDelivery({ id, webhookId: webhook._id, type: 'task.created', body: JSON.stringify({ type: 'task.created', timestamp: now, data: { board: board.id } }), messageId: `msg_${id}`, at: now }, trx);
        }
      });
      t.app.outbox.wake();
      // One claim takes them all (fewer than a batch); as many as there are places start.
      const locked = async () => (await t.app.db.selectFrom('outbox').select('lockedBy').where('webhookId', '=', webhook._id).execute()).filter((row) => row.lockedBy !== null).length;
      await expect.poll(locked, { message: 'one claim takes every delivery', timeout: 10_000, interval: 20 }).toBe(total);
      await expect.poll(() => receiver.at('/slow').length, { message: 'a delivery reaches the receiver', timeout: 10_000, interval: 20 }).toBeGreaterThan(0);

      // Closing: once the outbox has stopped starting deliveries, the receiver answers the ones
      // under way with a failure; the close waits for them and records them.
      const stopped = t.app.outbox.stop();
      receiver.release(503);
      await stopped;
      // Read as the stop left them, with no outbox running: an app started now would claim the
      // given-back deliveries (due at once) and try them, which is what they are given back for.
      const rows = await t.app.db.selectFrom('outbox').select(['status', 'lockedBy', 'attempts', 'runAt']).where('webhookId', '=', webhook._id).execute();
      const tried = rows.filter((row) => row.attempts === 1);
      const untried = rows.filter((row) => row.attempts === 0);
      // The ones under way failed while the app closed: retried later, as any failure.
      expect(tried).toHaveLength(OUTBOX_POLICY.webhookConcurrency);
      expect(tried.filter((row) => !(row.status === 'pending' && row.lockedBy === null && row.runAt > now))).toEqual([]);
      // The ones still queued went back untouched.
      expect(untried).toHaveLength(36);
      expect(untried.filter((row) => !(row.status === 'pending' && row.lockedBy === null && row.runAt === now))).toEqual([]);
      // None of those reached the receiver: only the places under way did.
      expect(receiver.at('/slow').length).toBeLessThanOrEqual(OUTBOX_POLICY.webhookConcurrency);
    } finally {
      policy.timeoutMs = timeout;
    }
  });

  it('webhook deliveries are claimed apart from mail: a receiver that hangs does not hold mail back', async () => {
    const policy = WEBHOOK_POLICY as { timeoutMs: number };
    const timeout = policy.timeoutMs;
    policy.timeoutMs = 3000;
    try {
      const { admin, board, webhook } = await hooked('/hang', ['task.created']);
      receiver.state.answer = () => 'hang';
      await createTask(t, admin.cookie, { boardId: board.id });
      // Let the app's own worker take the delivery (woken by the commit).
      await expect.poll(() => receiver.at('/hang').length, { message: 'the delivery reaches the receiver', timeout: 10_000, interval: 20 }).toBe(1);
      const address = `mail-${newId()}@example.test`;
      await t.app.db.transaction().execute((trx) => t.app.outbox.enqueue(trx, { kind: 'test', to: address, subject: 'Not held', text: 'x', html: 'x' }));
      t.app.outbox.wake();
      await expect.poll(() => t.mail.to(address).length, { message: 'the mail arrives', timeout: 10_000, interval: 20 }).toBe(1);
      // ...while the delivery still hangs: claimed, not yet timed out (3 s) nor recorded.
      const delivery = await t.app.db.selectFrom('outbox').select(['status', 'lockedBy', 'attempts', 'responseStatus']).where('webhookId', '=', webhook._id).execute();
      expect(delivery).toEqual([{ status: 'pending', lockedBy: expect.any(String) as string, attempts: 1, responseStatus: null }]);
    } finally {
      policy.timeoutMs = timeout;
    }
  });
});

describe('the outbound rule at delivery (OUTBOUND_ALLOW_PRIVATE off)', () => {
  it('a name that resolves to a loopback address is refused when sent, failed at once, and nothing reaches it', async () => {
    await t.rebuild({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    const { admin, board } = await labelsTeam(t);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, `http://localhost:${receiver.port}/private`, ['task.created']);
    await createTask(t, admin.cookie, { boardId: board.id });
    await t.app.outbox.drain();
    expect(receiver.at('/private')).toEqual([]);
    const [row] = await deliveryRows(t, webhook._id);
    expect(row).toMatchObject({ status: 'failed', responseStatus: null });
    expect(row!.lastError).toContain('refused');
  });
});
