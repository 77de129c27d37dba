import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createUser, signIn, uniqueEmail } from '../factories.ts';
import { DAY, useTestApp, type Response } from '../helpers.ts';
import { snapshot } from './db-snapshot.ts';

/**
 * ASVS V4 (access control) and V3 (session management): every task call against every kind of
 * caller. The visibility rule: a user sees, edits, completes and deletes exactly
 * the tasks they created or that are assigned to their e-mail; any other id answers exactly like
 * a missing one (404); a request without a live session answers 401 and changes nothing.
 */
const t = useTestApp();

type Actor = 'creator' | 'assignee' | 'stranger' | 'signedOut' | 'expired' | 'loggedOut';
const ACTORS: readonly Actor[] = ['creator', 'assignee', 'stranger', 'signedOut', 'expired', 'loggedOut'];
const SIGNED_IN: readonly Actor[] = ['creator', 'assignee', 'stranger'];
const NOT_SIGNED_IN = { status: 'fail', code: 'NOT_AUTHENTICATED', message: SERVER_MESSAGES.notAuthenticated };

interface Cast {
  cookies: Record<Actor, string | undefined>;
  names: Record<'creator' | 'assignee' | 'stranger', string>;
  assigneeEmail: string;
}

/**
 * The cast of one test. The expired session is made first and left unused for 30 days; the
 * logged-out one is a second session of the creator, signed out; the live sessions start after.
 */
async function cast(): Promise<Cast> {
  const expired = await createSignedInUser(t);
  t.clock.advance(30 * DAY);
  const creator = await createSignedInUser(t);
  const assignee = await createSignedInUser(t);
  const stranger = await createSignedInUser(t);
  const loggedOut = await signIn(t, creator.user);
  expect((await t.request('GET', '/api/users/logout', { cookie: loggedOut })).status).toBe(200);
  return {
    cookies: {
      creator: creator.cookie,
      assignee: assignee.cookie,
      stranger: stranger.cookie,
      signedOut: undefined,
      expired: expired.cookie,
      loggedOut,
    },
    names: { creator: creator.user.fullName, assignee: assignee.user.fullName, stranger: stranger.user.fullName },
    assigneeEmail: assignee.user.email,
  };
}

async function taskOf(c: Cast, title = `Shared task ${uniqueEmail('t')}`) {
  const res = await t.request('POST', '/api/tasks', {
    body: { taskTitle: title, assignee: c.assigneeEmail, priority: 'high' },
    cookie: c.cookies.creator,
  });
  expect(res.status, res.body).toBe(201);
  return res.json.data.task as { _id: string; taskTitle: string };
}

/** The answer a stranger must get: byte for byte what a never-existing id gets. */
async function missingAnswer(c: Cast, method: 'PATCH' | 'DELETE', body?: unknown): Promise<Response> {
  return t.request(method, '/api/tasks/NeverExisted000000000a', { cookie: c.cookies.creator, body });
}

function expectNotSignedIn(res: Response, who: Actor) {
  expect(res.status, `${who}: ${res.body}`).toBe(401);
  expect(res.json, who).toEqual(NOT_SIGNED_IN);
}

/** GETs `url` as every caller: 401 to those without a live session; the 200 answers of the signed-in ones. */
async function signedInReads(c: Cast, url: string): Promise<[Actor, Response][]> {
  const answers: [Actor, Response][] = [];
  for (const who of ACTORS) {
    const res = await t.request('GET', url, { cookie: c.cookies[who] });
    if (!SIGNED_IN.includes(who)) {
      expectNotSignedIn(res, who);
      continue;
    }
    expect(res.status, who).toBe(200);
    answers.push([who, res]);
  }
  return answers;
}

describe('access control matrix: task calls × callers', () => {
  it('GET /api/tasks lists the task to its creator and assignee only; 401 without a live session', async () => {
    const c = await cast();
    const task = await taskOf(c);
    for (const [who, res] of await signedInReads(c, '/api/tasks')) {
      const ids = (res.json.data.tasks as { _id: string }[]).map((x) => x._id);
      expect(ids.includes(task._id), who).toBe(who !== 'stranger');
      expect(res.json.results, who).toBe(ids.length);
    }
  });

  it('GET /api/tasks/counts counts the task for its creator and assignee only; 401 without a live session', async () => {
    const c = await cast();
    await taskOf(c);
    for (const [who, res] of await signedInReads(c, '/api/tasks/counts?priority=high')) {
      expect(res.json.data.counts, who).toEqual({ todo: who === 'stranger' ? 0 : 1, done: 0, overdue: 0 });
    }
  });

  it('GET /api/tasks?limit= (paged) never shows the task to a stranger, on any page; 401 without a live session', async () => {
    const c = await cast();
    const task = await taskOf(c);
    // The stranger has pages of their own, so a leak would have somewhere to hide.
    for (let i = 0; i < 3; i++) {
      await t.request('POST', '/api/tasks', { body: { taskTitle: `Mine ${i}`, assignee: uniqueEmail() }, cookie: c.cookies.stranger });
    }
    for (const who of ACTORS) {
      let res = await t.request('GET', '/api/tasks?limit=1', { cookie: c.cookies[who] });
      if (!SIGNED_IN.includes(who)) {
        expectNotSignedIn(res, who);
        continue;
      }
      const seen: string[] = [];
      for (let page = 0; page < 10; page++) {
        expect(res.status, who).toBe(200);
        seen.push(...(res.json.data.tasks as { _id: string }[]).map((x) => x._id));
        const next = res.json.data.nextCursor;
        if (next === null) break;
        res = await t.request('GET', `/api/tasks?limit=1&cursor=${encodeURIComponent(next)}`, { cookie: c.cookies[who] });
      }
      expect(seen.includes(task._id), who).toBe(who !== 'stranger');
    }
    // A cursor taken from someone else's board reveals nothing either: it is only a position.
    const creatorPage = await t.request('GET', '/api/tasks?limit=1', { cookie: c.cookies.creator });
    const stolen = creatorPage.json.data.nextCursor;
    if (stolen !== null) {
      const res = await t.request('GET', `/api/tasks?limit=50&cursor=${encodeURIComponent(stolen)}`, { cookie: c.cookies.stranger });
      expect((res.json.data.tasks as { _id: string }[]).some((x) => x._id === task._id)).toBe(false);
    }
  });

  it('POST /api/tasks creates for any signed-in user with the caller as assignor (a spoofed one is ignored); 401 and no row otherwise', async () => {
    const c = await cast();
    for (const who of ACTORS) {
      const before = await snapshot(t.app.db);
      const res = await t.request('POST', '/api/tasks', {
        body: { taskTitle: `By ${who}`, assignee: uniqueEmail(), assignor: 'Mallory', assignorEmail: 'mallory@evil.test', createdBy: 'x', _id: 'chosen-id' },
        cookie: c.cookies[who],
      });
      if (!SIGNED_IN.includes(who)) {
        expectNotSignedIn(res, who);
        expect(await snapshot(t.app.db), who).toEqual(before);
        continue;
      }
      expect(res.status, who).toBe(201);
      const task = res.json.data.task as { _id: string; assignor: string };
      expect(task.assignor, who).toBe(c.names[who as keyof Cast['names']]);
      expect(task._id, who).not.toBe('chosen-id');
    }
  });

  it.each([
    ['PATCH /api/tasks/:id (edit)', { taskTitle: 'Rewritten by someone', priority: 'low' }],
    ['PATCH /api/tasks/:id (complete)', { status: 'done' }],
  ])('%s: creator and assignee 200; stranger 404 like a missing id; 401 without a live session; nothing changes on a refusal', async (_name, body) => {
    const c = await cast();
    for (const who of ACTORS) {
      const task = await taskOf(c);
      const before = await snapshot(t.app.db);
      const res = await t.request('PATCH', `/api/tasks/${task._id}`, { body, cookie: c.cookies[who] });
      if (who === 'creator' || who === 'assignee') {
        expect(res.status, `${who}: ${res.body}`).toBe(200);
        expect(res.json.data.task, who).toMatchObject(body);
        continue;
      }
      if (who === 'stranger') {
        const missing = await missingAnswer(c, 'PATCH', body);
        expect(res.status, who).toBe(404);
        expect(res.json, who).toEqual(missing.json);
        expect(res.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.taskNotFound });
      } else {
        expectNotSignedIn(res, who);
      }
      expect(await snapshot(t.app.db), who).toEqual(before);
    }
  });

  it('DELETE /api/tasks/:id: creator and assignee 204; stranger 404 like a missing id; 401 without a live session; the row stays on a refusal', async () => {
    const c = await cast();
    for (const who of ACTORS) {
      const task = await taskOf(c);
      const before = await snapshot(t.app.db);
      const res = await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: c.cookies[who] });
      if (who === 'creator' || who === 'assignee') {
        expect(res.status, who).toBe(204);
        expect(res.body, who).toBe('');
        const row = await t.app.db.selectFrom('tasks').select('id').where('id', '=', task._id).executeTakeFirst();
        expect(row, who).toBeUndefined();
        continue;
      }
      if (who === 'stranger') {
        const missing = await missingAnswer(c, 'DELETE');
        expect(res.status, who).toBe(404);
        expect(res.json, who).toEqual(missing.json);
      } else {
        expectNotSignedIn(res, who);
      }
      expect(await snapshot(t.app.db), who).toEqual(before);
    }
  });

  it('a task reassigned away is no longer visible to the old assignee, and becomes visible to the new one', async () => {
    const c = await cast();
    const task = await taskOf(c);
    const newcomer = await createSignedInUser(t);
    const res = await t.request('PATCH', `/api/tasks/${task._id}`, { body: { assignee: newcomer.user.email }, cookie: c.cookies.assignee });
    expect(res.status).toBe(200);
    expect((await t.request('PATCH', `/api/tasks/${task._id}`, { body: { status: 'done' }, cookie: c.cookies.assignee })).status).toBe(404);
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: c.cookies.assignee })).status).toBe(404);
    expect((await t.request('PATCH', `/api/tasks/${task._id}`, { body: { status: 'done' }, cookie: newcomer.cookie })).status).toBe(200);
  });

  it('visibility follows the e-mail, not its spelling: an upper-case assignee is the same person', async () => {
    const c = await cast();
    const res = await t.request('POST', '/api/tasks', {
      body: { taskTitle: 'Shouted address', assignee: `  ${c.assigneeEmail.toUpperCase()} ` },
      cookie: c.cookies.creator,
    });
    expect(res.status).toBe(201);
    const list = await t.request('GET', '/api/tasks', { cookie: c.cookies.assignee });
    expect((list.json.data.tasks as { _id: string }[]).map((x) => x._id)).toContain(res.json.data.task._id);
  });
});

describe('session tokens (ASVS V3)', () => {
  it('a token is useless after logout: every task call answers 401 and the session row is gone', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    const task = (await t.request('POST', '/api/tasks', { body: { taskTitle: 'Before logout', assignee: uniqueEmail() }, cookie })).json.data.task as { _id: string };
    await t.request('POST', '/api/users/logout', { cookie });
    const hash = createHash('sha256').update(cookie.split('=')[1]!).digest('hex');
    expect(await t.app.db.selectFrom('sessions').select('tokenHash').where('tokenHash', '=', hash).executeTakeFirst()).toBeUndefined();
    for (const [method, url, body] of [
      ['GET', '/api/tasks', undefined],
      ['GET', '/api/tasks/counts', undefined],
      ['POST', '/api/tasks', { taskTitle: 'After logout', assignee: uniqueEmail() }],
      ['PATCH', `/api/tasks/${task._id}`, { status: 'done' }],
      ['DELETE', `/api/tasks/${task._id}`, undefined],
      ['GET', '/api/users/me', undefined],
    ] as const) {
      expectNotSignedIn(await t.request(method, url, { cookie, body }), 'loggedOut');
    }
  });

  it('fixation: a planted, well-formed token is never upgraded by a sign-in; the sign-in issues a different one', async () => {
    const user = await createUser(t);
    const planted = `taskwise_session=${'Pl4nted_by_an_attacker_'.padEnd(43, 'x')}`;
    expect(planted.split('=')[1]).toHaveLength(43);
    const res = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, cookie: planted });
    expect(res.status).toBe(200);
    expect(res.sessionCookie).toBeDefined();
    expect(res.sessionCookie).not.toBe(planted);
    expectNotSignedIn(await t.request('GET', '/api/tasks', { cookie: planted }), 'signedOut');
    expect((await t.request('GET', '/api/tasks', { cookie: res.sessionCookie })).status).toBe(200);
  });

  it('fixation: signing in as someone else with a live cookie does not carry the old session over', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createUser(t);
    const res = await t.request('POST', '/api/users/login', { body: { email: bob.email, password: bob.password }, cookie: alice.cookie });
    expect(res.status).toBe(200);
    expect(res.sessionCookie).not.toBe(alice.cookie);
    expectNotSignedIn(await t.request('GET', '/api/users/me', { cookie: alice.cookie }), 'loggedOut');
    expect((await t.request('GET', '/api/users/me', { cookie: res.sessionCookie })).json.data.user.email).toBe(bob.email);
  });

  it('tokens are 256-bit random base64url values, unique across 20 sign-ins, and never appear in a body or URL', async () => {
    const user = await createUser(t);
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
      const token = res.sessionCookie!.split('=')[1]!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(res.body).not.toContain(token);
      expect(res.headers.location).toBeUndefined();
      tokens.add(token);
    }
    expect(tokens.size).toBe(20);
  });

  it('a failed sign-in with a live cookie neither ends nor replaces that session (no denial of service through a wrong password)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/users/login', { body: { email: user.email, password: 'wrong password' }, cookie });
    expect(res.status).toBe(401);
    expect(res.sessionCookie).toBeUndefined();
    expect((await t.request('GET', '/api/users/me', { cookie })).status).toBe(200);
  });
});
