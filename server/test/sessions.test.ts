import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createUser, signIn } from './factories.ts';
import { DAY, MINUTE, useTestApp } from './helpers.ts';

const t = useTestApp();

const me = (cookie?: string) => t.request('GET', '/api/users/me', { cookie });
const NOT_SIGNED_IN = { status: 'fail', code: 'NOT_AUTHENTICATED', message: SERVER_MESSAGES.notAuthenticated };
const tokenOf = (cookie: string) => cookie.slice('taskwise_session='.length);

describe('GET /api/users/me', () => {
  it('answers the signed-in user', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await me(cookie);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', data: { user: { fullName: user.fullName, email: user.email } } });
  });

  it.each([
    ['no cookie', undefined],
    ['a malformed cookie', 'taskwise_session=abc'],
    ['an unknown token', `taskwise_session=${'A'.repeat(43)}`],
  ])('answers 401 NOT_AUTHENTICATED with %s', async (_name, cookie) => {
    const res = await me(cookie);
    expect(res.status).toBe(401);
    expect(res.json).toEqual(NOT_SIGNED_IN);
  });
});

describe('sessions', () => {
  it('stores only the SHA-256 of the token', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const rows = await t.app.db.selectFrom('sessions').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    const token = tokenOf(cookie);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('starts a new session on every sign-in; each works on its own', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user);
    const second = await signIn(t, user);
    expect(first).not.toBe(second);
    expect((await me(first)).status).toBe(200);
    expect((await me(second)).status).toBe(200);
  });

  it('replaces the session a browser already had when it signs in again', async () => {
    const user = await createUser(t);
    const old = await signIn(t, user);
    const res = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, cookie: old });
    expect(res.status).toBe(200);
    expect((await me(old)).status).toBe(401);
    expect((await me(res.sessionCookie)).status).toBe(200);
  });

  it('expires after 30 days without use', async () => {
    const { cookie } = await createSignedInUser(t);
    t.clock.advance(30 * DAY);
    const res = await me(cookie);
    expect(res.status).toBe(401);
    expect(res.json).toEqual(NOT_SIGNED_IN);
    expect(String(res.headers['set-cookie'])).toMatch(/taskwise_session=;/);
  });

  it('slides: use keeps it alive beyond 30 days after sign-in', async () => {
    const { user, cookie } = await createSignedInUser(t);
    t.clock.advance(20 * DAY);
    const touched = await me(cookie);
    expect(touched.status).toBe(200);
    // The refreshed cookie goes out again with a fresh lifetime.
    expect(touched.sessionCookie).toBe(cookie);
    t.clock.advance(20 * DAY);
    expect((await me(cookie)).status).toBe(200);
    const row = await t.app.db.selectFrom('sessions').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(row.expiresAt).toBe(new Date(t.clock.now().getTime() + 30 * DAY).toISOString());
  });

  it('writes the sliding expiry at most every 5 minutes', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const read = () => t.app.db.selectFrom('sessions').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    const before = await read();
    t.clock.advance(4 * MINUTE);
    const quiet = await me(cookie);
    expect(quiet.sessionCookie).toBeUndefined();
    expect(await read()).toEqual(before);
    t.clock.advance(1 * MINUTE);
    expect((await me(cookie)).sessionCookie).toBe(cookie);
    expect((await read()).lastSeenAt).toBe(t.clock.now().toISOString());
  });
});

describe.each(['GET', 'POST'] as const)('%s /api/users/logout', (method) => {
  it('deletes the session and clears the cookie', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request(method, '/api/users/logout', { cookie });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: SERVER_MESSAGES.loggedOut });
    const cleared = String(res.headers['set-cookie']);
    expect(cleared).toMatch(/^taskwise_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect((await me(cookie)).status).toBe(401);
  });

  it('signs out only that session', async () => {
    const user = await createUser(t);
    const phone = await signIn(t, user);
    const laptop = await signIn(t, user);
    await t.request(method, '/api/users/logout', { cookie: phone });
    expect((await me(laptop)).status).toBe(200);
  });

  it('answers 200 without a session too', async () => {
    const res = await t.request(method, '/api/users/logout');
    expect(res.status).toBe(200);
  });
});

describe('POST /api/users/logout with a JSON content type and no body', () => {
  it('is accepted (an empty body is no body)', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/users/logout', { cookie, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
  });
});
