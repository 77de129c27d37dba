import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { TOKEN_MESSAGES, TOKEN_POLICY } from '#shared/schemas/tokens.ts';
import { runCommand } from './commands.ts';
import { createSignedInUser, createTask, insertBoard, nextIp, signIn, uniqueEmail } from './factories.ts';
import { DAY, MINUTE, SECOND, useTestApp } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';
import { createToken, tokenDataOf, withToken } from './tokens-support.ts';
import { english } from '../i18n/translate.ts';

/** Personal API tokens: their management (with a session) and Bearer sign-in. */
const t = useTestApp();

const INVALID = { status: 'fail', code: 'NOT_AUTHENTICATED', message: TOKEN_MESSAGES.invalid };

describe('POST /api/tokens', () => {
  it('answers 201 with the token and its secret (tw_ + 32 random bytes, base64url), stored only as its SHA-256', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tokens', { cookie, body: { name: '  CI script  ', access: 'read', expiresInDays: 30 } });
    expect(res.status, res.body).toBe(201);
    const { token, secret } = tokenDataOf(res);
    const now = t.clock.now();
    expect(token).toEqual({
      _id: expect.any(String) as string,
      name: 'CI script',
      access: 'read',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 30 * DAY).toISOString(),
      lastUsedAt: null,
    });
    expect(secret).toMatch(/^tw_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(3), 'base64url')).toHaveLength(32);
    const rows = await t.app.db.selectFrom('apiTokens').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    // The secret itself is nowhere in the row (nor any part of it).
    expect(JSON.stringify(rows)).not.toContain(secret.slice(3, 20));
  });

  it('makes a token that never expires without expiresInDays (or with null), and a new secret each time', async () => {
    const { cookie } = await createSignedInUser(t);
    const a = await createToken(t, cookie);
    const b = await createToken(t, cookie);
    expect(a.token.expiresAt).toBeNull();
    const none = await t.request('POST', '/api/tokens', { cookie, body: { name: 'No end', access: 'read', expiresInDays: null } });
    expect(none.status, none.body).toBe(201);
    expect((none.json.data as unknown as { token: { expiresAt: string | null } }).token.expiresAt).toBeNull();
    expect(a.secret).not.toBe(b.secret);
  });

  it.each([
    [{ name: '   ', access: 'read' }, 'name', TOKEN_MESSAGES.nameRequired],
    [{ name: 'x'.repeat(61), access: 'read' }, 'name', english(TOKEN_MESSAGES.nameTooLong)],
    [{ name: 'ok', access: 'admin' }, 'access', undefined],
    [{ name: 'ok', access: 'read', expiresInDays: 0 }, 'expiresInDays', undefined],
    [{ name: 'ok', access: 'read', expiresInDays: 366 }, 'expiresInDays', undefined],
    [{ name: 'ok', access: 'read', expiresInDays: 1.5 }, 'expiresInDays', undefined],
    [{ access: 'read' }, 'name', undefined],
  ])('refuses %j with 400 naming %s, and stores nothing', async (body, field, message) => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tokens', { cookie, body });
    expect(res.status, res.body).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors.map((e) => e.field)).toContain(field);
    if (message !== undefined) expect(res.json.message).toBe(message);
    expect(await t.app.db.selectFrom('apiTokens').select('id').where('userId', '=', user.id).execute()).toEqual([]);
  });

  it('accepts a name of exactly 60 characters after trimming', async () => {
    const { cookie } = await createSignedInUser(t);
    const { token } = await createToken(t, cookie, { name: ` ${'n'.repeat(60)} ` });
    expect(token.name).toBe('n'.repeat(60));
  });

  it(`allows ${TOKEN_POLICY.perUser} per account, then 409 LIMIT_REACHED; another account is not affected`, async () => {
    const { cookie } = await createSignedInUser(t);
    for (let i = 0; i < TOKEN_POLICY.perUser; i++) await createToken(t, cookie, { name: `T${i}` });
    const res = await t.request('POST', '/api/tokens', { cookie, body: { name: 'one more', access: 'read' } });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ status: 'fail', code: 'LIMIT_REACHED', message: english(TOKEN_MESSAGES.tooMany) });
    const list = await t.request('GET', '/api/tokens', { cookie });
    expect(tokenDataOf(list).tokens).toHaveLength(TOKEN_POLICY.perUser);
    const other = await createSignedInUser(t);
    await createToken(t, other.cookie);
    // Revoking one makes room again.
    const [first] = tokenDataOf(list).tokens;
    expect((await t.request('DELETE', `/api/tokens/${first?._id ?? ''}`, { cookie })).status).toBe(204);
    await createToken(t, cookie, { name: 'room again' });
  });

  it('holds the limit when creations race (the count and insert run under a lock on the user row)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    for (let i = 0; i < TOKEN_POLICY.perUser - 3; i++) await createToken(t, cookie, { name: `T${i}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.request('POST', '/api/tokens', { cookie, body: { name: `race ${i}`, access: 'read' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const { count } = await t.app.db
      .selectFrom('apiTokens')
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(count).toBe(TOKEN_POLICY.perUser);
  });

  it('needs a session: 401 without one', async () => {
    const res = await t.request('POST', '/api/tokens', { body: { name: 'x', access: 'read' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/tokens', () => {
  it("lists only the caller's tokens, newest first, without secrets", async () => {
    const { cookie } = await createSignedInUser(t);
    const first = await createToken(t, cookie, { name: 'first' });
    t.clock.advance(SECOND);
    const second = await createToken(t, cookie, { name: 'second', access: 'read', expiresInDays: 90 });
    const other = await createSignedInUser(t);
    await createToken(t, other.cookie, { name: 'theirs' });
    const res = await t.request('GET', '/api/tokens', { cookie });
    expect(res.status).toBe(200);
    expect(tokenDataOf(res).tokens).toEqual([second.token, first.token]);
    expect(res.body).not.toContain(first.secret);
    expect(res.body).not.toContain('secret');
  });
});

describe('DELETE /api/tokens/:id', () => {
  it('revokes my token: 204, then the token is 401', async () => {
    const { cookie } = await createSignedInUser(t);
    const { token, secret } = await createToken(t, cookie);
    const call = withToken(t, secret);
    expect((await call('GET', '/api/users/me')).status).toBe(200);
    expect((await t.request('DELETE', `/api/tokens/${token._id}`, { cookie })).status).toBe(204);
    const res = await call('GET', '/api/users/me');
    expect(res.status).toBe(401);
    expect(res.json).toEqual(INVALID);
    expect(tokenDataOf(await t.request('GET', '/api/tokens', { cookie })).tokens).toEqual([]);
  });

  it("answers 404 for someone else's token (which keeps working) and for an unknown id", async () => {
    const owner = await createSignedInUser(t);
    const { token, secret } = await createToken(t, owner.cookie);
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('DELETE', `/api/tokens/${token._id}`, { cookie });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('NOT_FOUND');
    expect((await t.request('DELETE', '/api/tokens/nope', { cookie })).status).toBe(404);
    expect((await withToken(t, secret)('GET', '/api/users/me')).status).toBe(200);
  });
});

describe('Authorization: Bearer', () => {
  it('signs the call in as the token user, without a cookie', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie);
    const res = await withToken(t, secret)('GET', '/api/users/me');
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.user).toEqual({ fullName: user.fullName, email: user.email });
    expect(res.sessionCookie).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('takes the scheme name in any case', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie);
    const res = await t.request('GET', '/api/users/me', { headers: { authorization: `bearer ${secret}` } });
    expect(res.status).toBe(200);
  });

  it('writes without an Origin check: a foreign or missing Origin is fine with a token, not with a cookie', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie);
    const body = { taskTitle: 'From a script', assignee: uniqueEmail() };
    const noOrigin = await withToken(t, secret)('POST', '/api/tasks', { body });
    expect(noOrigin.status, noOrigin.body).toBe(201);
    const foreign = await withToken(t, secret)('POST', '/api/tasks', { body, headers: { origin: 'https://elsewhere.example' } });
    expect(foreign.status, foreign.body).toBe(201);
    const cookieCall = await t.request('POST', '/api/tasks', { cookie, body, headers: { origin: 'https://elsewhere.example' } });
    expect(cookieCall.status).toBe(403);
    expect(cookieCall.json.code).toBe('FORBIDDEN_ORIGIN');
  });

  it('still takes JSON bodies only (415 for text/plain)', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie);
    const res = await withToken(t, secret)('POST', '/api/tasks', {
      body: JSON.stringify({ taskTitle: 'x', assignee: uniqueEmail() }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });

  it('a read token may GET (and HEAD), and gets 403 TOKEN_READ_ONLY for anything else; nothing changes', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const { secret } = await createToken(t, cookie, { access: 'read' });
    const call = withToken(t, secret);
    expect((await call('GET', `/api/tasks/${task._id}`)).status).toBe(200);
    expect((await call('HEAD', `/api/tasks/${task._id}`)).status).toBe(200);
    const refused = [
      await call('POST', '/api/tasks', { body: { taskTitle: 'x', assignee: uniqueEmail() } }),
      await call('PATCH', `/api/tasks/${task._id}`, { body: { taskTitle: 'Changed' } }),
      await call('DELETE', `/api/tasks/${task._id}`),
      await call('POST', `/api/tasks/${task._id}/comments`, { body: { body: 'hi' } }),
    ];
    for (const res of refused) {
      expect(res.status, res.body).toBe(403);
      expect(res.json).toEqual({ status: 'fail', code: 'TOKEN_READ_ONLY', message: TOKEN_MESSAGES.readOnly });
    }
    const after = await t.request('GET', `/api/tasks/${task._id}`, { cookie });
    expect(after.json.data.task).toMatchObject({ taskTitle: task.taskTitle, version: task.version });
    expect((await t.request('GET', '/api/tasks', { cookie })).json.results).toBe(1);
  });

  it('a write token does what its user may do', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const call = withToken(t, (await createToken(t, cookie)).secret);
    const res = await call('PATCH', `/api/tasks/${task._id}`, { body: { status: 'done' } });
    expect(res.status, res.body).toBe(200);
    expect((await call('DELETE', `/api/tasks/${task._id}`)).status).toBe(204);
  });

  it('answers 401 with one body for an unknown, malformed, empty, revoked or expired token', async () => {
    const { cookie } = await createSignedInUser(t);
    const { token, secret } = await createToken(t, cookie, { expiresInDays: 1 });
    const revoked = await createToken(t, cookie);
    expect((await t.request('DELETE', `/api/tokens/${revoked.token._id}`, { cookie })).status).toBe(204);
    const unknown = `tw_${'A'.repeat(43)}`;
    const answers = [
      await withToken(t, unknown)('GET', '/api/tasks'),
      await withToken(t, 'not-a-token')('GET', '/api/tasks'),
      await t.request('GET', '/api/tasks', { headers: { authorization: 'Bearer' } }),
      await withToken(t, revoked.secret)('GET', '/api/tasks'),
    ];
    t.clock.advance(DAY);
    answers.push(await withToken(t, secret)('GET', '/api/tasks'));
    for (const res of answers) {
      expect(res.status, res.body).toBe(401);
      expect(res.json).toEqual(INVALID);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="taskwise"');
    }
    // The expired token stays listed, so its owner sees why it stopped.
    expect(tokenDataOf(await t.request('GET', '/api/tokens', { cookie })).tokens.map((x) => x._id)).toContain(token._id);
  });

  it('works until the instant it expires', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie, { expiresInDays: 30 });
    t.clock.advance(30 * DAY - SECOND);
    expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(401);
  });

  it('ignores other schemes (a proxy\'s Basic credentials): the cookie signs in', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('GET', '/api/users/me', { cookie, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(res.status).toBe(200);
  });

  it('with a cookie and a Bearer header, the token alone counts (the cookie is not read)', async () => {
    const a = await createSignedInUser(t);
    const b = await createSignedInUser(t);
    const { secret } = await createToken(t, b.cookie);
    const both = await t.request('GET', '/api/users/me', { cookie: a.cookie, headers: { authorization: `Bearer ${secret}` } });
    expect(both.json.data.user.email).toBe(b.user.email);
    const bad = await t.request('GET', '/api/users/me', { cookie: a.cookie, headers: { authorization: 'Bearer tw_nope' } });
    expect(bad.status).toBe(401);
    // The session was neither used nor ended.
    expect(bad.headers['set-cookie']).toBeUndefined();
    expect((await t.request('GET', '/api/users/me', { cookie: a.cookie })).status).toBe(200);
  });

  it('records the last use to the minute: one write, then none for a minute', async () => {
    const { cookie } = await createSignedInUser(t);
    const { token, secret } = await createToken(t, cookie);
    const lastUsed = async () => (await t.app.db.selectFrom('apiTokens').select('lastUsedAt').where('id', '=', token._id).executeTakeFirstOrThrow()).lastUsedAt;
    const call = withToken(t, secret);
    expect(await lastUsed()).toBeNull();
    const first = t.clock.now().toISOString();
    await call('GET', '/api/tasks');
    expect(await lastUsed()).toBe(first);
    t.clock.advance(MINUTE - SECOND);
    await call('GET', '/api/tasks');
    expect(await lastUsed()).toBe(first);
    t.clock.advance(SECOND);
    await call('GET', '/api/tasks');
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
    const listed = tokenDataOf(await t.request('GET', '/api/tokens', { cookie })).tokens[0];
    expect(listed?.lastUsedAt).toBe(t.clock.now().toISOString());
  });
});

describe('a token never does more than its user', () => {
  it("cannot read another person's task", async () => {
    const owner = await createSignedInUser(t);
    const task = await createTask(t, owner.cookie, { assignee: uniqueEmail() });
    const { cookie } = await createSignedInUser(t);
    const call = withToken(t, (await createToken(t, cookie)).secret);
    expect((await call('GET', `/api/tasks/${task._id}`)).status).toBe(404);
    expect((await call('GET', '/api/tasks')).json.results).toBe(0);
    expect((await call('PATCH', `/api/tasks/${task._id}`, { body: { taskTitle: 'Mine now' } })).status).toBe(404);
  });

  it("a viewer's write token cannot write on the board", async () => {
    const admin = await createSignedInUser(t);
    const viewer = await createSignedInUser(t);
    const board = await insertBoard(t, admin.user, [{ who: viewer.user, role: 'viewer' }]);
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const call = withToken(t, (await createToken(t, viewer.cookie)).secret);
    expect((await call('GET', `/api/tasks/${task._id}`)).status).toBe(200);
    const refused = [
      await call('PATCH', `/api/tasks/${task._id}`, { body: { taskTitle: 'Changed' } }),
      await call('POST', '/api/tasks', { body: { taskTitle: 'New', assignee: uniqueEmail(), boardId: board.id } }),
    ];
    for (const res of refused) {
      expect(res.status, res.body).toBe(403);
      expect(res.json).toMatchObject({ code: 'FORBIDDEN', message: SERVER_MESSAGES.viewerCannotChangeTasks });
    }
  });
});

describe('every token of the account is revoked', () => {
  /** Two tokens of a fresh user and a check that both have stopped working. */
  async function twoTokens() {
    const { user, cookie } = await createSignedInUser(t);
    const secrets = [(await createToken(t, cookie)).secret, (await createToken(t, cookie, { access: 'read' })).secret];
    for (const secret of secrets) expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(200);
    return {
      user,
      cookie,
      allRevoked: async () => {
        for (const secret of secrets) expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(401);
        expect(await t.app.db.selectFrom('apiTokens').select('id').where('userId', '=', user.id).execute()).toEqual([]);
      },
    };
  }

  it('on sign out everywhere', async () => {
    const { cookie, allRevoked } = await twoTokens();
    expect((await t.request('POST', '/api/users/logout-all', { cookie })).status).toBe(200);
    await allRevoked();
  });

  it('on a password change (this session stays)', async () => {
    const { user, cookie, allRevoked } = await twoTokens();
    const res = await t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword: user.password, newPassword: 'a new secret password' } });
    expect(res.status, res.body).toBe(200);
    await allRevoked();
    expect((await t.request('GET', '/api/users/me', { cookie })).status).toBe(200);
  });

  it('on a password reset by mail', async () => {
    const { user, allRevoked } = await twoTokens();
    expect((await t.request('POST', '/api/password-resets', { body: { email: user.email }, ip: nextIp() })).status).toBe(201);
    const otp = codeFrom(t.mail.last(user.email));
    const res = await t.request('POST', '/api/password-resets/confirm', { body: { email: user.email, otp, password: 'a reset password here' } });
    expect(res.status, res.body).toBe(200);
    await allRevoked();
  });

  it('on account deletion', async () => {
    const { user, cookie, allRevoked } = await twoTokens();
    const res = await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } });
    expect(res.status, res.body).toBe(204);
    await allRevoked();
  });

  it('not on a plain logout of one session', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const { secret } = await createToken(t, other);
    expect((await t.request('POST', '/api/users/logout', { cookie })).status).toBe(200);
    expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(200);
  });

  it('by the admin commands users:reset-password and sessions:revoke', async () => {
    const database = t.config.database;
    const env = { DATABASE_URL: database.kind === 'sqlite' ? `file:${database.file}` : database.url };
    const first = await twoTokens();
    const revoke = await runCommand('admin', ['sessions:revoke', '--email', first.user.email], { env, cwd: process.cwd() });
    expect(revoke.stdout).toBe(`Ended 1 session(s) of ${first.user.email}. 2 API token(s) revoked.\n`);
    await first.allRevoked();
    const second = await twoTokens();
    const reset = await runCommand('admin', ['users:reset-password', '--email', second.user.email, '--password-stdin'], {
      env,
      cwd: process.cwd(),
      stdin: 'another long password\n',
    });
    expect(reset.stdout, reset.stderr).toBe(`New password for ${second.user.email}; 1 session(s) ended. 2 API token(s) revoked.\n`);
    await second.allRevoked();
  });
});
