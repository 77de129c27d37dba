import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Executor } from '../db/prepared.ts';
import { HEARTBEAT_MS, MAX_STREAMS_PER_USER } from '../events/policy.ts';
import { appendEvent, type NewEvent } from '../repositories/events-repository.ts';
import { sweep } from '../plugins/housekeeping.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { MINUTE, useTestApp } from './helpers.ts';
import { openStream } from './sse-client.ts';

const t = useTestApp();

/** The app on a real socket (127.0.0.1, a free port). */
async function listening(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

interface EventData {
  task: Task;
  by: { fullName: string; email: string };
}
const dataOf = (event: { json: unknown }) => event.json as EventData;
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });

/** Creates a task while a stream is open: the task and its `task.created` event; the stream is closed after. */
async function createWhileListening(base: string, cookie: string) {
  const stream = await openStream(base, cookie);
  const task = await createTask(t, cookie);
  const event = await stream.next();
  stream.close();
  return { task, event };
}

describe('GET /api/events', () => {
  it('answers 401 JSend without a session', async () => {
    const stream = await openStream(await listening(), undefined);
    expect(stream.status).toBe(401);
    expect(JSON.parse(stream.body)).toMatchObject({ status: 'fail', code: 'NOT_AUTHENTICATED' });
  });

  it('is a text/event-stream, never compressed or cached, and sends task.created to creator and assignee with the actor', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const adaStream = await openStream(base, ada.cookie);
    const bobStream = await openStream(base, bob.cookie);
    expect(adaStream.status).toBe(200);
    expect(adaStream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(adaStream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(adaStream.headers.get('content-encoding')).toBeNull();
    expect(adaStream.headers.get('x-content-type-options')).toBe('nosniff');

    const task = await createTask(t, ada.cookie, { assignee: bob.user.email });
    for (const stream of [adaStream, bobStream]) {
      const event = await stream.next();
      expect(event.event).toBe('task.created');
      expect(event.id).toMatch(/^\d+$/);
      expect(event.json).toEqual({ task, by: { fullName: ada.user.fullName, email: ada.user.email } });
    }
    adaStream.close();
    bobStream.close();
  });

  it('sends updates while the task stays visible, and nothing to people who cannot see it', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const eve = await createSignedInUser(t);
    const eveStream = await openStream(base, eve.cookie);
    const task = await createTask(t, ada.cookie, { assignee: bob.user.email });
    const bobStream = await openStream(base, bob.cookie);
    const done = await patch(bob.cookie, task._id, { status: 'done' });
    const event = await bobStream.next();
    expect(event.event).toBe('task.updated');
    expect(dataOf(event).task).toEqual(done.json.data.task);
    expect(dataOf(event).by.email).toBe(bob.user.email);
    // Eve's first event is about her own task: nothing about Ada's came before it.
    const own = await createTask(t, eve.cookie);
    const first = await eveStream.next();
    expect(dataOf(first).task._id).toBe(own._id);
    eveStream.close();
    bobStream.close();
  });

  it('on reassignment: task.deleted to the old assignee, task.created to the new one, task.updated to the creator', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const cat = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie, { assignee: bob.user.email });
    const streams = await Promise.all([ada, bob, cat].map((u) => openStream(base, u.cookie)));
    const res = await patch(ada.cookie, task._id, { assignee: cat.user.email, version: 1 });
    expect(res.status).toBe(200);
    const [a, b, c] = await Promise.all(streams.map((s) => s.next()));
    expect([a?.event, b?.event, c?.event]).toEqual(['task.updated', 'task.deleted', 'task.created']);
    expect(b?.json).toEqual({ task: { _id: task._id, version: 2 }, by: { fullName: ada.user.fullName, email: ada.user.email } });
    expect(c?.json).toEqual({ task: res.json.data.task, by: { fullName: ada.user.fullName, email: ada.user.email } });
    for (const s of streams) s.close();
  });

  it('sends task.deleted to everyone who could see a deleted task', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie, { assignee: bob.user.email });
    const adaStream = await openStream(base, ada.cookie);
    const bobStream = await openStream(base, bob.cookie);
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: bob.cookie })).status).toBe(204);
    for (const stream of [adaStream, bobStream]) {
      const event = await stream.next();
      expect(event.event).toBe('task.deleted');
      expect(event.json).toEqual({ task: { _id: task._id, version: 2 }, by: { fullName: bob.user.fullName, email: bob.user.email } });
    }
    adaStream.close();
    bobStream.close();
  });

  it('sends nothing for a refused write (409) or a PATCH that changes nothing', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie, { priority: 'high' });
    const stream = await openStream(base, ada.cookie);
    expect((await patch(ada.cookie, task._id, { priority: 'low', version: 5 })).status).toBe(409);
    expect((await patch(ada.cookie, task._id, { priority: 'high' })).status).toBe(200);
    await patch(ada.cookie, task._id, { priority: 'urgent' });
    const event = await stream.next();
    expect(dataOf(event).task).toMatchObject({ priority: 'urgent', version: 2 });
    stream.close();
  });

  it('resumes with Last-Event-ID: every missed event, in order, without duplicates', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const { task, event: seen } = await createWhileListening(base, ada.cookie);
    await patch(ada.cookie, task._id, { priority: 'high' });
    await patch(ada.cookie, task._id, { priority: 'low' });
    await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: ada.cookie });
    const resumed = await openStream(base, ada.cookie, seen.id);
    const got = [await resumed.next(), await resumed.next(), await resumed.next()];
    expect(got.map((e) => e.event)).toEqual(['task.updated', 'task.updated', 'task.deleted']);
    expect(got.map((e) => (e.json as EventData).task.version)).toEqual([2, 3, 4]);
    const ids = got.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));
    // Live events follow the replay, and an event already replayed is not sent again.
    const next = await createTask(t, ada.cookie);
    const live = await resumed.next();
    expect(dataOf(live).task._id).toBe(next._id);
    resumed.close();
  });

  it('gives a fresh stream the current position, so a reconnect without events in between misses nothing', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    await createTask(t, ada.cookie);
    const stream = await openStream(base, ada.cookie);
    const position = await stream.position();
    stream.close();
    const task = await createTask(t, ada.cookie);
    const resumed = await openStream(base, ada.cookie, position);
    const event = await resumed.next();
    expect(event.event).toBe('task.created');
    expect(dataOf(event).task._id).toBe(task._id);
    resumed.close();
  });

  it('answers an unknown Last-Event-ID with event: reset', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    await createTask(t, ada.cookie);
    for (const id of ['999999999', 'not-a-number']) {
      const stream = await openStream(base, ada.cookie, id);
      const event = await stream.next();
      expect(event.event).toBe('reset');
      expect(event.id).toMatch(/^\d+$/);
      stream.close();
    }
  });

  it('keeps events at least 10 minutes, then prunes them; an id older than the log gets reset', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const { task, event: old } = await createWhileListening(base, ada.cookie);
    await patch(ada.cookie, task._id, { priority: 'high' });
    t.clock.advance(9 * MINUTE);
    await sweep(t.app);
    const withinTen = await openStream(base, ada.cookie, old.id);
    expect((await withinTen.next()).event).toBe('task.updated');
    withinTen.close();
    t.clock.advance(2 * MINUTE);
    await patch(ada.cookie, task._id, { priority: 'low' });
    await sweep(t.app);
    const tooOld = await openStream(base, ada.cookie, old.id);
    expect((await tooOld.next()).event).toBe('reset');
    tooOld.close();
  });

  it('sends a comment line as heartbeat, at least every 30 s', async () => {
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(30_000);
    const base = await listening();
    const ada = await createSignedInUser(t);
    const stream = await openStream(base, ada.cookie);
    await createTask(t, ada.cookie);
    await stream.next();
    await t.app.events.heartbeat();
    expect(await stream.nextComment()).toBe('heartbeat');
    stream.close();
  });

  it(`allows ${MAX_STREAMS_PER_USER} open streams per user; the next answers 429 until one closes`, async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_USER }, () => openStream(base, ada.cookie)));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200));
    const refused = await openStream(base, ada.cookie);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ status: 'fail', code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyStreams });
    // Another user is not affected.
    const other = await openStream(base, bob.cookie);
    expect(other.status).toBe(200);
    other.close();
    streams[0]?.close();
    // The lease is released when the server sees the stream close.
    const leases = async () => (await t.app.db.selectFrom('eventStreamLeases').select('id').where('userId', '=', ada.user.id).execute()).length;
    await expect.poll(leases, { message: "the closed stream's lease is released", timeout: 10_000, interval: 20 }).toBe(MAX_STREAMS_PER_USER - 1);
    const again = await openStream(base, ada.cookie);
    expect(again.status).toBe(200);
    again.close();
    for (const s of streams) s.close();
  });

  it('takes events only in the transaction of events.transaction, which wakes the streams (a plain one does not compile)', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const stream = await openStream(base, ada.cookie);
    await stream.position();
    const event: NewEvent = { type: 'task.updated', subjectId: 'typed', audience: [ada.user.email], data: { typed: true }, at: t.clock.now().toISOString() };
    // Checked by the compiler (npm run typecheck), never called: a plain transaction would
    // commit the event without waking this instance's streams.
    const plain = (trx: Executor) =>
      // @ts-expect-error -- appendEvent refuses a transaction that events.transaction did not make
      appendEvent(trx, event);
    expect(plain).toBeTypeOf('function');
    await t.app.events.transaction((trx) => appendEvent(trx, event));
    expect((await stream.next()).json).toEqual({ typed: true });
    stream.close();
  });

  it('ends every stream when the server shuts down, and close() returns promptly', async () => {
    const base = await listening();
    const ada = await createSignedInUser(t);
    const streams = await Promise.all([1, 2, 3].map(() => openStream(base, ada.cookie)));
    await t.app.close();
    await Promise.all(streams.map((s) => s.ended));
    expect(t.app.events.openStreams).toBe(0);
  });
});
