import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { build } from '../app.ts';
import { loadConfig } from '../config.ts';
import { appendEvent, type EventType } from '../repositories/events-repository.ts';
import type { Actor } from '../services/actor.ts';
import { eventsFor } from '../services/task-change.ts';
import { createSignedInUser, insertBoard, uniqueEmail, type TestUser } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';
import { http, scratchDatabase, seedUser, startServer, type ChildServer } from './security/child-server.ts';
import { openStream, type SseEvent, type SseStream } from './sse-client.ts';

/**
 * Live events follow boards: a task's events reach every active member of its board and its
 * assignee; `board.added` and `board.removed` for a person change what their open streams
 * receive from then on (in log order), also on a replay and across instances.
 */
const t = useTestApp();

type App = typeof t.app;

async function listening(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * A stream that has started (it sent its position). Its `next` skips the in-app notifications
 * the same writes cause (notifications-*.test.ts): these tests are about task and board events.
 */
async function live(base: string, cookie: string): Promise<SseStream> {
  const stream = await openStream(base, cookie);
  expect(stream.status).toBe(200);
  await stream.position();
  const next = stream.next.bind(stream);
  stream.next = async () => {
    for (;;) {
      const event = await next();
      if (!event.event.startsWith('notification.')) return event;
    }
  };
  return stream;
}

const actorOf = (user: Pick<TestUser, 'id' | 'email' | 'fullName'>): Actor => ({ userId: user.id, email: user.email, fullName: user.fullName });
const by = (user: Pick<TestUser, 'email' | 'fullName'>) => ({ fullName: user.fullName, email: user.email });
const taskOf = (event: SseEvent) => (event.json as { task: Task }).task;

/** A task created on `boardId` through the task write path (its `task.created` event included). */
async function createOnBoard(app: App, creator: Pick<TestUser, 'id' | 'email' | 'fullName'>, boardId: string, assignee: string): Promise<Task> {
  const fields = { taskTitle: `On the board ${uniqueEmail('t')}`, assigneeEmail: assignee, workTitle: '', deadline: null, priority: 'normal', status: 'todo', description: '', boardId } as const;
  return (await app.taskWrites.create(actorOf(creator), fields)).task;
}

/**
 * Takes `email` off or puts them on board `boardId` and appends the board event for them, in one
 * transaction, through the event path the boards API writes with.
 */
async function membership(app: App, type: 'board.added' | 'board.removed', who: Pick<TestUser, 'id' | 'email'>, boardId: string): Promise<void> {
  const at = app.clock.now().toISOString();
  await app.events.transaction(async (trx) => {
    if (type === 'board.removed') {
      await trx.deleteFrom('boardMembers').where('boardId', '=', boardId).where('email', '=', who.email).execute();
    } else {
      await trx
        .insertInto('boardMembers')
        .values({ boardId, email: who.email, userId: who.id, role: 'member', addedAt: at, addedByName: 'Admin', addedByEmail: 'admin@example.test' })
        .execute();
    }
    const data = type === 'board.removed' ? { board: { _id: boardId } } : { board: { _id: boardId, name: 'A board' } };
    await appendEvent(trx, { type, subjectId: boardId, boardId, audience: [who.email], data, at });
  });
}

let marks = 0;
/**
 * Appends an event for `emails` only and returns its mark: a stream whose next event is that
 * mark received nothing in between.
 */
async function mark(app: App, emails: string[]): Promise<number> {
  const n = ++marks;
  await app.events.transaction((trx) =>
    appendEvent(trx, { type: 'board.updated', subjectId: `mark-${n}`, audience: emails, data: { mark: n }, at: app.clock.now().toISOString() }),
  );
  return n;
}
async function expectMarkNext(stream: SseStream, n: number): Promise<void> {
  const event = await stream.next();
  expect({ event: event.event, json: event.json }).toEqual({ event: 'board.updated', json: { mark: n } });
}

const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });

/** An admin, a member, a viewer, a non-member and an assignee who is not a member, with a shared board. */
async function team() {
  const [ada, bob, cat, dan, eve] = await Promise.all([1, 2, 3, 4, 5].map(() => createSignedInUser(t)));
  if (ada === undefined || bob === undefined || cat === undefined || dan === undefined || eve === undefined) throw new Error('unreachable');
  const board = await insertBoard(t, ada.user, [
    { who: bob.user, role: 'member' },
    { who: cat.user, role: 'viewer' },
    // An invited address (no account) receives nothing, and must not break anything.
    { who: uniqueEmail('invited'), role: 'member' },
  ]);
  return { ada, bob, cat, dan, eve, board };
}

describe('live events follow boards', () => {
  it('task and comment events reach every active member of the board, whatever the role, and the assignee; nobody else', async () => {
    const base = await listening();
    const { ada, bob, cat, dan, eve, board } = await team();
    const people = [ada, bob, cat, dan, eve];
    const streams = await Promise.all(people.map((p) => live(base, p.cookie)));
    const [adaS, bobS, catS, danS, eveS] = streams as [SseStream, SseStream, SseStream, SseStream, SseStream];
    const seeing = [adaS, bobS, catS, eveS];

    const task = await createOnBoard(t.app, ada.user, board.id, eve.user.email);
    for (const s of seeing) {
      const event = await s.next();
      expect(event.event).toBe('task.created');
      expect(event.json).toEqual({ task, by: by(ada.user) });
    }

    const res = await patch(ada.cookie, task._id, { priority: 'high' });
    expect(res.status, res.body).toBe(200);
    for (const s of seeing) {
      const event = await s.next();
      expect(event.event).toBe('task.updated');
      expect(taskOf(event)).toEqual(res.json.data.task);
    }

    const comment = await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie: ada.cookie, body: { body: 'For the whole board' } });
    expect(comment.status, comment.body).toBe(201);
    for (const s of seeing) expect((await s.next()).event).toBe('comment.created');

    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: ada.cookie })).status).toBe(204);
    for (const s of seeing) {
      const event = await s.next();
      expect(event.event).toBe('task.deleted');
      expect(event.json).toEqual({ task: { _id: task._id, version: 3 }, by: by(ada.user) });
    }

    // Dan (not on the board, not the assignee) received none of it.
    await expectMarkNext(danS, await mark(t.app, [dan.user.email]));
    for (const s of streams) s.close();
  });

  it('a reassignment: the old assignee loses sight only when not a member; members keep getting task.updated', async () => {
    const base = await listening();
    const { ada, bob, dan, eve, board } = await team();
    const task = await createOnBoard(t.app, ada.user, board.id, bob.user.email);
    const [bobS, danS, eveS] = await Promise.all([bob, dan, eve].map((p) => live(base, p.cookie))) as [SseStream, SseStream, SseStream];

    // Bob (a member) was the assignee: he still sees it through the board; Eve gains it.
    expect((await patch(ada.cookie, task._id, { assignee: eve.user.email })).status).toBe(200);
    expect((await bobS.next()).event).toBe('task.updated');
    expect((await eveS.next()).event).toBe('task.created');

    // Eve (not a member) loses it; Dan (not a member) gains it.
    const res = await patch(ada.cookie, task._id, { assignee: dan.user.email });
    expect(res.status).toBe(200);
    expect(await eveS.next()).toMatchObject({ event: 'task.deleted', json: { task: { _id: task._id, version: 3 }, by: by(ada.user) } });
    const gained = await danS.next();
    expect(gained.event).toBe('task.created');
    expect(taskOf(gained)).toEqual(res.json.data.task);
    expect((await bobS.next()).event).toBe('task.updated');
    for (const s of [bobS, danS, eveS]) s.close();
  });

  it('after board.removed reaches a stream it gets nothing more about the board; after board.added it does again', async () => {
    const base = await listening();
    const { ada, bob, board } = await team();
    const task = await createOnBoard(t.app, ada.user, board.id, ada.user.email);
    const bobS = await live(base, bob.cookie);
    const adaS = await live(base, ada.cookie);

    await membership(t.app, 'board.removed', bob.user, board.id);
    const removed = await bobS.next();
    expect(removed.event).toBe('board.removed');
    expect(removed.json).toEqual({ board: { _id: board.id } });

    await patch(ada.cookie, task._id, { priority: 'low' });
    await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie: ada.cookie, body: { body: 'Not for Bob' } });
    expect((await adaS.next()).event).toBe('task.updated');
    expect((await adaS.next()).event).toBe('comment.created');
    await expectMarkNext(bobS, await mark(t.app, [bob.user.email]));

    await membership(t.app, 'board.added', bob.user, board.id);
    expect((await bobS.next()).event).toBe('board.added');
    const res = await patch(ada.cookie, task._id, { priority: 'urgent' });
    const again = await bobS.next();
    expect(again.event).toBe('task.updated');
    expect(taskOf(again)).toEqual(res.json.data.task);

    // A stream opened after the removal starts without the board too.
    await membership(t.app, 'board.removed', bob.user, board.id);
    expect((await bobS.next()).event).toBe('board.removed');
    const fresh = await live(base, bob.cookie);
    await patch(ada.cookie, task._id, { priority: 'normal' });
    await expectMarkNext(fresh, await mark(t.app, [bob.user.email]));
    for (const s of [adaS, bobS, fresh]) s.close();
  });

  it('a move: task.deleted to who sees only the old board, task.created to who sees only the new one, task.updated to who sees both', async () => {
    const base = await listening();
    const { ada, bob, cat, dan, eve, board: from } = await team();
    // Ada is on both boards; Bob and Cat only on the old one; Dan only on the new one; Eve is the assignee.
    const to = await insertBoard(t, ada.user, [{ who: dan.user, role: 'viewer' }]);
    const before = await createOnBoard(t.app, ada.user, from.id, eve.user.email);
    const streams = await Promise.all([ada, bob, cat, dan, eve].map((p) => live(base, p.cookie)));
    const [adaS, bobS, catS, danS, eveS] = streams as [SseStream, SseStream, SseStream, SseStream, SseStream];

    const after: Task = { ...before, boardId: to.id, version: 2 };
    const events = eventsFor({ kind: 'updated', before, after, actor: actorOf(ada.user), now: t.clock.now() });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'task.updated', boardId: to.id, fromBoardId: from.id, audience: [eve.user.email], fromAudience: null });
    await t.app.events.transaction(async (trx) => {
      for (const event of events) await appendEvent(trx, event);
    });

    const moved = { task: after, by: by(ada.user) };
    const expected: [SseStream, EventType, unknown][] = [
      [adaS, 'task.updated', moved],
      [eveS, 'task.updated', moved],
      [bobS, 'task.deleted', { task: { _id: before._id, version: 2 }, by: by(ada.user) }],
      [catS, 'task.deleted', { task: { _id: before._id, version: 2 }, by: by(ada.user) }],
      [danS, 'task.created', moved],
    ];
    for (const [stream, type, json] of expected) {
      const event = await stream.next();
      expect({ event: event.event, json: event.json }).toEqual({ event: type, json });
    }
    for (const s of streams) s.close();
  });

  it('a move that also changes the assignee: each side is judged by board and assignee together', async () => {
    const base = await listening();
    const { ada, bob, dan, eve, board: from } = await team();
    const to = await insertBoard(t, ada.user, []);
    const before = await createOnBoard(t.app, ada.user, from.id, eve.user.email);
    const [bobS, danS, eveS] = await Promise.all([bob, dan, eve].map((p) => live(base, p.cookie))) as [SseStream, SseStream, SseStream];
    const after: Task = { ...before, boardId: to.id, assignee: bob.user.email, version: 2 };
    await t.app.events.transaction(async (trx) => {
      for (const event of eventsFor({ kind: 'updated', before, after, actor: actorOf(ada.user), now: t.clock.now() })) await appendEvent(trx, event);
    });
    // Bob saw it through the old board and now as its assignee; Eve was its assignee and is not on the new board.
    expect((await bobS.next()).event).toBe('task.updated');
    expect((await eveS.next()).event).toBe('task.deleted');
    await expectMarkNext(danS, await mark(t.app, [dan.user.email]));
    for (const s of [bobS, danS, eveS]) s.close();
  });

  it('a replay after Last-Event-ID follows the same rules, with the boards as they were at each event', async () => {
    const base = await listening();
    const { ada, bob, dan, board } = await team();
    const task = await createOnBoard(t.app, ada.user, board.id, ada.user.email);
    const positionOf = async (cookie: string) => {
      const stream = await live(base, cookie);
      stream.close();
      return stream.lastEventId;
    };
    const bobPosition = await positionOf(bob.cookie);
    const danPosition = await positionOf(dan.cookie);
    const version = async (priority: 'low' | 'high' | 'urgent' | 'normal') => {
      const res = await patch(ada.cookie, task._id, { priority });
      expect(res.status).toBe(200);
      return res.json.data.task.version;
    };
    const v2 = await version('low'); // Bob sees it, Dan does not.
    await membership(t.app, 'board.removed', bob.user, board.id);
    await membership(t.app, 'board.added', dan.user, board.id);
    const v3 = await version('high'); // Dan sees it, Bob does not.
    await membership(t.app, 'board.added', bob.user, board.id);
    const v4 = await version('urgent'); // Both see it.

    const bobS = await openStream(base, bob.cookie, bobPosition);
    const bobGot = [await bobS.next(), await bobS.next(), await bobS.next(), await bobS.next()];
    expect(bobGot.map((e) => e.event)).toEqual(['task.updated', 'board.removed', 'board.added', 'task.updated']);
    expect([taskOf(bobGot[0]!).version, taskOf(bobGot[3]!).version]).toEqual([v2, v4]);

    const danS = await openStream(base, dan.cookie, danPosition);
    const danGot = [await danS.next(), await danS.next(), await danS.next()];
    expect(danGot.map((e) => e.event)).toEqual(['board.added', 'task.updated', 'task.updated']);
    expect([taskOf(danGot[1]!).version, taskOf(danGot[2]!).version]).toEqual([v3, v4]);

    // Both go on live with the boards the replay left them with.
    await membership(t.app, 'board.removed', bob.user, board.id);
    expect((await bobS.next()).event).toBe('board.removed');
    await version('normal');
    expect((await danS.next()).event).toBe('task.updated');
    await expectMarkNext(bobS, await mark(t.app, [bob.user.email]));
    bobS.close();
    danS.close();
  });
});

/**
 * Two real server processes on one fresh PostgreSQL database, and a third instance in this
 * process (the app built on the same database) that writes the board events, as the boards API
 * of any instance would.
 */
describe.runIf(isPostgres)('live events follow boards across instances (PostgreSQL)', () => {
  it('a member on another instance gets the board task events until board.removed reaches them, and again after board.added', { timeout: 90_000 }, async () => {
    const database = await scratchDatabase();
    const servers: ChildServer[] = [];
    const password = 'a live password';
    const ada = { email: uniqueEmail('ada'), password, fullName: 'Ada Admin' };
    const bob = { email: uniqueEmail('bob'), password, fullName: 'Bob Member' };
    await seedUser(database, ada);
    await seedUser(database, bob);
    const app = await build({ config: loadConfig({ DATABASE_URL: database.url, SESSION_SECRET: 'third-secret-third-secret-third-secret-1', LOG_LEVEL: 'silent' }, database.dir) });
    try {
      await app.ready();
      const user = async (email: string) => {
        const row = await app.db.selectFrom('users').select(['id', 'email', 'fullName']).where('email', '=', email).executeTakeFirstOrThrow();
        return row;
      };
      const adaUser = await user(ada.email);
      const bobUser = await user(bob.email);
      const boardId = `board-${Date.now()}`;
      const now = new Date().toISOString();
      await app.db.insertInto('boards').values({ id: boardId, name: 'Across', description: '', personal: 0, createdAt: now, updatedAt: now }).execute();
      await app.db
        .insertInto('boardMembers')
        .values([adaUser, bobUser].map((u) => ({ boardId, email: u.email, userId: u.id, role: 'member', addedAt: now, addedByName: 'Ada', addedByEmail: ada.email })))
        .execute();

      const env = { DATABASE_URL: database.url };
      servers.push(await startServer(env, database.dir), await startServer(env, database.dir));
      const [a, b] = servers as [ChildServer, ChildServer];
      const login = async (server: ChildServer, who: { email: string; password: string }) => {
        const res = await http(`${server.url}/api/users/login`, { method: 'POST', body: { email: who.email, password: who.password } });
        expect(res.status, res.body).toBe(200);
        return ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
      };
      const adaCookie = await login(a, ada);
      const bobCookie = await login(b, bob);
      const bobS = await live(b.url, bobCookie);

      const task = await createOnBoard(app, adaUser, boardId, ada.email);
      expect(taskOf(await bobS.next())._id).toBe(task._id);
      const change = async (priority: string) => {
        const res = await http(`${a.url}/api/tasks/${task._id}`, { method: 'PATCH', body: { priority }, headers: { cookie: adaCookie } });
        expect(res.status, res.body).toBe(200);
      };
      await change('high');
      expect(taskOf(await bobS.next()).priority).toBe('high');

      await membership(app, 'board.removed', bobUser, boardId);
      expect((await bobS.next()).event).toBe('board.removed');
      await change('low');
      await expectMarkNext(bobS, await mark(app, [bob.email]));

      await membership(app, 'board.added', bobUser, boardId);
      expect((await bobS.next()).event).toBe('board.added');
      await change('urgent');
      expect(taskOf(await bobS.next()).priority).toBe('urgent');
      bobS.close();
    } finally {
      for (const server of servers) await server.stop('SIGTERM');
      await app.close();
      await database.drop();
    }
  });
});
