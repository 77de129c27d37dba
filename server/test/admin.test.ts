import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { AccountsEnvelope, AuditEnvelope, SettingsEnvelope } from '#shared/schemas/admin.ts';
import { loadConfig } from '../config.ts';
import { describeSettings } from '../services/admins.ts';
import { runCommand } from './commands.ts';
import { createSignedInUser, createTask, createUser, nextIp, registerThroughApi, setAccountLanguage, signIn, uniqueEmail, type TestUser } from './factories.ts';
import { useTestApp, type RequestOptions } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';
import { createToken, withToken } from './tokens-support.ts';

/**
 * Instance administrators: who is one (ADMIN_EMAILS or `users:promote`), the 404 everyone else
 * gets for /api/admin/*, the accounts list, deactivation and reactivation, resetting the second
 * step, instance invitations, the settings with secrets hidden, and the audit log.
 */
const t = useTestApp();

const accountsOf = (res: { json: unknown }) => (res.json as AccountsEnvelope).data;
const auditOf = async (cookie: string) => (((await t.request('GET', '/api/admin/audit', { cookie })).json as unknown as AuditEnvelope).data.entries);

/** An account promoted the way `users:promote` leaves it, signed in. */
async function createAdmin(): Promise<{ user: TestUser; cookie: string }> {
  const user = await createUser(t, { email: uniqueEmail('admin') });
  await t.app.db.updateTable('users').set({ adminSince: t.clock.now().toISOString() }).where('id', '=', user.id).execute();
  return { user, cookie: await signIn(t, user) };
}

const CALLS: [method: 'GET' | 'POST', url: string, body?: unknown][] = [
  ['GET', '/api/admin/accounts'],
  ['GET', '/api/admin/accounts?q=x&page=2'],
  ['POST', '/api/admin/accounts/some-id/deactivate'],
  ['POST', '/api/admin/accounts/some-id/reactivate'],
  ['POST', '/api/admin/accounts/some-id/reset-second-step'],
  ['POST', '/api/admin/invitations', { email: 'someone@example.test' }],
  ['POST', '/api/admin/invitations', { nonsense: true }],
  ['GET', '/api/admin/settings'],
  ['GET', '/api/admin/audit'],
];

describe('/api/admin/* for anyone but an instance admin', () => {
  it('answers exactly as an unknown address does: signed out, signed in, with a token, deactivated-looking ids alike', async () => {
    const unknown = await t.request('GET', '/api/no-such-thing');
    expect(unknown.status).toBe(404);
    const { cookie } = await createSignedInUser(t);
    const admin = await createAdmin();
    const { secret } = await createToken(t, admin.cookie, { access: 'write' });
    const asToken = withToken(t, secret);
    for (const [method, url, body] of CALLS) {
      const options: RequestOptions = body === undefined ? {} : { body };
      for (const res of [await t.request(method, url, options), await t.request(method, url, { ...options, cookie }), await asToken(method, url, options)]) {
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.json).toEqual(unknown.json);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
    // A bad session cookie is not cleared either (an unknown address would not).
    expect((await t.request('GET', '/api/admin/accounts', { cookie: 'taskwise_session=' + 'x'.repeat(43) })).headers['set-cookie']).toBeUndefined();
    // The admin with a session gets the API, and an unknown admin address is an unknown address.
    expect((await t.request('GET', '/api/admin/accounts', { cookie: admin.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/admin/nothing-here', { cookie: admin.cookie })).json).toEqual(unknown.json);
  });

  it('the admin calls are not in the public OpenAPI document', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    expect(Object.keys(doc.json.paths).filter((path) => path.startsWith('/api/admin'))).toEqual([]);
  });
});

describe('who is an instance admin', () => {
  it('ADMIN_EMAILS (any case) makes the account an admin; GET /api/users/me/settings says so', async () => {
    const chosen = await createSignedInUser(t, { email: uniqueEmail('boss') });
    const other = await createSignedInUser(t);
    await t.rebuild({ ADMIN_EMAILS: ` ${chosen.user.email.toUpperCase()} , nobody@example.test` });
    expect((await t.request('GET', '/api/admin/accounts', { cookie: chosen.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/admin/accounts', { cookie: other.cookie })).status).toBe(404);
    const isAdmin = async (cookie: string) => ((await t.request('GET', '/api/users/me/settings', { cookie })).json.data as unknown as { isAdmin: boolean }).isAdmin;
    expect(await isAdmin(chosen.cookie)).toBe(true);
    expect(await isAdmin(other.cookie)).toBe(false);
    const listed = accountsOf(await t.request('GET', `/api/admin/accounts?q=${encodeURIComponent(chosen.user.email)}`, { cookie: chosen.cookie }));
    expect(listed.accounts.map((a) => a.isAdmin)).toEqual([true]);
  });

  it('a bad ADMIN_EMAILS stops the start naming the variable', () => {
    expect(() => loadConfig({ ADMIN_EMAILS: 'ok@example.test,not an address', SESSION_SECRET: 'x'.repeat(40) })).toThrow(/^Invalid configuration: ADMIN_EMAILS /);
  });

  it('npm run admin -- users:promote / users:demote; demoting leaves an ADMIN_EMAILS address an admin', { timeout: 60_000 }, async () => {
    const env = { DATABASE_URL: t.config.database.kind === 'sqlite' ? `file:${t.config.database.file}` : t.config.database.url };
    const command = (args: string[], extra: Record<string, string> = {}) => runCommand('admin', args, { env: { ...env, ...extra }, cwd: process.cwd() });
    const { user, cookie } = await createSignedInUser(t);
    expect((await t.request('GET', '/api/admin/accounts', { cookie })).status).toBe(404);

    expect(await command(['users:promote', '--email', user.email.toUpperCase()])).toEqual({ code: 0, stdout: `${user.email} is now an instance admin.\n`, stderr: '' });
    expect((await t.request('GET', '/api/admin/accounts', { cookie })).status).toBe(200);
    expect((await command(['users:promote', '--email', user.email])).stdout).toBe(`${user.email} was already promoted; nothing changed.\n`);
    const entries = await auditOf(cookie);
    expect(entries.filter((e) => e.subjectEmail === user.email)).toMatchObject([{ actorEmail: 'admin command', action: 'promote' }]);

    const demoted = await command(['users:demote', '--email', user.email], { ADMIN_EMAILS: user.email });
    expect(demoted.stdout).toBe(`${user.email} is no longer promoted to instance admin. ${user.email} is still an admin through ADMIN_EMAILS: take the address out of that setting too.\n`);
    expect((await t.request('GET', '/api/admin/accounts', { cookie })).status).toBe(404);
    const unknown = await command(['users:promote', '--email', uniqueEmail('nobody')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/There is no account/);
  });
});

describe('GET /api/admin/accounts', () => {
  it('lists every account with created, last seen, boards, storage and sign-in methods; searches address and name; pages', async () => {
    const admin = await createAdmin();
    const tag = `zq${Date.now().toString(36)}`;
    const ada = await createUser(t, { email: uniqueEmail(`${tag}-ada`), fullName: 'Ada Lovelace' });
    const bob = await createUser(t, { email: uniqueEmail('bob'), fullName: `Bob ${tag.toUpperCase()} Builder` });
    await createUser(t, { fullName: 'Carol Nomatch' });
    const adaCookie = await signIn(t, ada);
    const task = await createTask(t, adaCookie);
    await t.app.db
      .insertInto('attachments')
      .values({ id: 'att-' + tag, taskId: task._id, name: 'a.txt', size: 1234, type: 'text/plain', width: null, height: null, storageKey: `attachments/${tag}`, thumbnailKey: null, uploaderId: ada.id, uploaderName: ada.fullName, uploaderEmail: ada.email, createdAt: t.clock.now().toISOString() })
      .execute();

    const found = accountsOf(await t.request('GET', `/api/admin/accounts?q=${tag.toUpperCase()}`, { cookie: admin.cookie }));
    expect(found.total).toBe(2);
    // Made at the same instant: by address.
    expect(found.accounts.map((a) => a.email)).toEqual([bob.email, ada.email]);
    expect(found.accounts[1]).toEqual({
      id: ada.id,
      email: ada.email,
      fullName: 'Ada Lovelace',
      createdAt: t.clock.now().toISOString(),
      lastSeenAt: t.clock.now().toISOString(),
      boards: 1,
      storageBytes: 1234,
      signInMethods: ['password'],
      isAdmin: false,
      deactivatedAt: null,
    });
    expect(found.accounts[0]).toMatchObject({ lastSeenAt: null, storageBytes: 0, boards: 1 });

    // Two-step on: listed among the sign-in methods.
    const { secret } = (await t.request('POST', '/api/account/two-step/setup', { cookie: adaCookie })).json.data as unknown as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie: adaCookie, body: { code } })).status).toBe(200);
    const again = accountsOf(await t.request('GET', `/api/admin/accounts?q=${encodeURIComponent(ada.email)}`, { cookie: admin.cookie }));
    expect(again.accounts[0]?.signInMethods).toEqual(['password', 'two-step']);

    // Pages of 50, oldest first.
    const all = accountsOf(await t.request('GET', '/api/admin/accounts', { cookie: admin.cookie }));
    for (let i = all.total; i <= 50; i++) await createUser(t);
    const first = accountsOf(await t.request('GET', '/api/admin/accounts', { cookie: admin.cookie }));
    const second = accountsOf(await t.request('GET', '/api/admin/accounts?page=2', { cookie: admin.cookie }));
    expect(first.accounts).toHaveLength(50);
    expect(second.accounts.length).toBe(first.total - 50);
    expect(new Set([...first.accounts, ...second.accounts].map((a) => a.id)).size).toBe(first.total);
    expect((await t.request('GET', '/api/admin/accounts?page=0', { cookie: admin.cookie })).status).toBe(400);
  });
});

describe('deactivate and reactivate', () => {
  it('leaves deleted accounts out of the list and its search, though their rows stay under the names', async () => {
    const admin = await createAdmin();
    const tag = `gone${Date.now().toString(36)}`;
    const { user, cookie } = await createSignedInUser(t, { email: uniqueEmail(tag), fullName: `Gone ${tag}` });
    expect(accountsOf(await t.request('GET', `/api/admin/accounts?q=${tag}`, { cookie: admin.cookie })).total).toBe(1);
    expect((await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } })).status).toBe(204);
    expect(accountsOf(await t.request('GET', `/api/admin/accounts?q=${tag}`, { cookie: admin.cookie }))).toMatchObject({ accounts: [], total: 0 });
    const deleted = accountsOf(await t.request('GET', '/api/admin/accounts?q=deleted.invalid', { cookie: admin.cookie }));
    expect(deleted.total).toBe(0);
  });

  it('ends every session at once, refuses sign-in with 403 ACCOUNT_DEACTIVATED and API tokens, deletes nothing; reactivate restores it', async () => {
    const admin = await createAdmin();
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const { secret } = await createToken(t, cookie, { access: 'write' });
    const task = await createTask(t, cookie, { assignee: admin.user.email });

    const res = await t.request('POST', `/api/admin/accounts/${user.id}/deactivate`, { cookie: admin.cookie });
    expect(res.status, res.body).toBe(200);
    expect((res.json.data as unknown as { account: { deactivatedAt: string } }).account.deactivatedAt).toBe(t.clock.now().toISOString());
    for (const session of [cookie, other]) expect((await t.request('GET', '/api/users/me', { cookie: session })).status).toBe(401);
    expect(await t.app.db.selectFrom('sessions').select('tokenHash').where('userId', '=', user.id).execute()).toEqual([]);

    const login = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(403);
    expect(login.json).toEqual({ status: 'fail', code: 'ACCOUNT_DEACTIVATED', message: expect.stringMatching(/deactivated/) as string });
    expect(login.sessionCookie).toBeUndefined();
    // A wrong password is told nothing more than anyone's.
    expect((await t.request('POST', '/api/users/login', { body: { email: user.email, password: 'not the password' } })).status).toBe(401);
    const tokenCall = await withToken(t, secret)('GET', '/api/tasks');
    expect(tokenCall.status).toBe(401);
    // A password reset is no way back in.
    expect((await t.request('POST', '/api/password-resets', { body: { email: user.email }, ip: nextIp() })).status).toBe(201);
    const otp = codeFrom(t.mail.last(user.email));
    const reset = await t.request('POST', '/api/password-resets/confirm', { body: { email: user.email, otp, password: 'another long password' } });
    expect(reset.status).toBe(403);
    expect(reset.json.code).toBe('ACCOUNT_DEACTIVATED');

    // Nothing deleted: the token, the task (still assigned and shown to its assignee).
    expect(await t.app.db.selectFrom('apiTokens').select('id').where('userId', '=', user.id).execute()).toHaveLength(1);
    const seen = await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie });
    expect(seen.status).toBe(200);
    expect(seen.json.data.task.assignorEmail).toBe(user.email);
    // Again: nothing changes, nothing more in the log.
    expect((await t.request('POST', `/api/admin/accounts/${user.id}/deactivate`, { cookie: admin.cookie })).status).toBe(200);

    t.clock.advance(1000);
    const back = await t.request('POST', `/api/admin/accounts/${user.id}/reactivate`, { cookie: admin.cookie });
    expect(back.status, back.body).toBe(200);
    expect((back.json.data as unknown as { account: { deactivatedAt: null } }).account.deactivatedAt).toBeNull();
    await signIn(t, user);
    expect((await withToken(t, secret)('GET', '/api/tasks')).status).toBe(200);

    const entries = await auditOf(admin.cookie);
    expect(entries.slice(0, 2).map((e) => [e.action, e.actorEmail, e.subjectEmail])).toEqual([
      ['reactivate', admin.user.email, user.email],
      ['deactivate', admin.user.email, user.email],
    ]);
    expect(entries.filter((e) => e.subjectEmail === user.email)).toHaveLength(2);
  });

  it('refuses the second step of a sign-in that was waiting for its code', async () => {
    const admin = await createAdmin();
    const { user, cookie } = await createSignedInUser(t);
    const { secret } = (await t.request('POST', '/api/account/two-step/setup', { cookie })).json.data as unknown as { secret: string };
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: totp.generate({ timestamp: t.clock.now().getTime() }) } })).status).toBe(200);
    const asked = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
    const token = (asked.json.data as unknown as { secondStep: { token: string } }).secondStep.token;
    expect((await t.request('POST', `/api/admin/accounts/${user.id}/deactivate`, { cookie: admin.cookie })).status).toBe(200);
    t.clock.advance(30_000);
    const code = totp.generate({ timestamp: t.clock.now().getTime() });
    const res = await t.request('POST', '/api/users/login/second-step', { body: { token, code } });
    expect(res.status).not.toBe(200);
    expect(res.sessionCookie).toBeUndefined();
    // Reactivated, a new sign-in with its code works; deactivated meanwhile, the code step answers 403.
    expect((await t.request('POST', `/api/admin/accounts/${user.id}/reactivate`, { cookie: admin.cookie })).status).toBe(200);
    const again = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
    const next = (again.json.data as unknown as { secondStep: { token: string } }).secondStep.token;
    await t.app.db.updateTable('users').set({ deactivatedAt: t.clock.now().toISOString() }).where('id', '=', user.id).execute();
    const refused = await t.request('POST', '/api/users/login/second-step', { body: { token: next, code } });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('ACCOUNT_DEACTIVATED');
  });

  it('an admin cannot deactivate themself (409); an unknown account is 404', async () => {
    const admin = await createAdmin();
    const res = await t.request('POST', `/api/admin/accounts/${admin.user.id}/deactivate`, { cookie: admin.cookie });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('CANNOT_DEACTIVATE_SELF');
    expect((await t.request('GET', '/api/users/me', { cookie: admin.cookie })).status).toBe(200);
    const missing = await t.request('POST', '/api/admin/accounts/no-such-account/deactivate', { cookie: admin.cookie });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('There is no such account.');
  });
});

describe('POST /api/admin/accounts/:id/reset-second-step', () => {
  it('turns two-step sign-in off (as users:reset-2fa does) and logs it', async () => {
    const admin = await createAdmin();
    const { user, cookie } = await createSignedInUser(t);
    const { secret } = (await t.request('POST', '/api/account/two-step/setup', { cookie })).json.data as unknown as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code } })).status).toBe(200);
    expect((await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } })).sessionCookie).toBeUndefined();

    const res = await t.request('POST', `/api/admin/accounts/${user.id}/reset-second-step`, { cookie: admin.cookie });
    expect(res.status, res.body).toBe(200);
    expect(res.json.message).toMatch(/Two-step sign-in is off/);
    await signIn(t, user);
    const again = await t.request('POST', `/api/admin/accounts/${user.id}/reset-second-step`, { cookie: admin.cookie });
    expect(again.json.message).toMatch(/was not set up/);
    expect((await auditOf(admin.cookie)).filter((e) => e.subjectEmail === user.email).map((e) => e.action)).toEqual(['reset-second-step']);
  });
});

describe('POST /api/admin/invitations', () => {
  it('mails the sign-up link; with REGISTRATION=invite the invited address may register, others not', async () => {
    await t.rebuild({ REGISTRATION: 'invite' });
    const admin = await createAdmin();
    const email = uniqueEmail('invited');
    t.clock.advance(1000);
    const res = await t.request('POST', '/api/admin/invitations', { cookie: admin.cookie, body: { email: ` ${email.toUpperCase()} ` } });
    expect(res.status, res.body).toBe(200);
    await t.app.outbox.drain();
    const mail = t.mail.last(email);
    expect(mail.subject).toBe('You are invited to Taskwise');
    expect(mail.text).toContain(`http://localhost:3000/sign-up?email=${encodeURIComponent(email)}`);

    const stranger = await t.request('POST', '/api/otps', { body: { email: uniqueEmail('stranger') }, ip: nextIp() });
    expect(stranger.status).toBe(403);
    await registerThroughApi(t, { email });
    expect(await t.app.db.selectFrom('instanceInvitations').select('email').where('email', '=', email).execute()).toEqual([]);
    expect((await auditOf(admin.cookie))[0]).toMatchObject({ action: 'invite', actorEmail: admin.user.email, subjectEmail: email });

    const taken = await t.request('POST', '/api/admin/invitations', { cookie: admin.cookie, body: { email } });
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('ACCOUNT_EXISTS');
    const bad = await t.request('POST', '/api/admin/invitations', { cookie: admin.cookie, body: { email: 'not-an-address' } });
    expect(bad.status).toBe(400);
  });

  it('REGISTRATION_DOMAINS still applies; with REGISTRATION=closed nothing is invited', async () => {
    await t.rebuild({ REGISTRATION: 'invite', REGISTRATION_DOMAINS: 'example.test' });
    const admin = await createAdmin();
    const outside = await t.request('POST', '/api/admin/invitations', { cookie: admin.cookie, body: { email: 'guest@elsewhere.example' } });
    expect(outside.status).toBe(409);
    expect(outside.json.code).toBe('OUTSIDE_REGISTRATION_DOMAINS');
    await t.rebuild({ REGISTRATION: 'closed' });
    const closed = await t.request('POST', '/api/admin/invitations', { cookie: admin.cookie, body: { email: uniqueEmail('closed') } });
    expect(closed.status).toBe(409);
    expect(closed.json.code).toBe('REGISTRATION_CLOSED');
    await t.app.outbox.drain();
    expect(t.mail.to('guest@elsewhere.example')).toEqual([]);
    expect(await t.app.db.selectFrom('instanceInvitations').select('email').execute()).toHaveLength(0);
  });
});

describe('GET /api/admin/settings', () => {
  it('shows every setting, secrets only as set / not set and URLs without credentials', async () => {
    await t.rebuild({ METRICS_TOKEN: 'metrics-token-0123456789', SMTP_URL: `smtp://mailer:hunter2-smtp@127.0.0.1:${t.mail.port}` });
    const admin = await createAdmin();
    const res = await t.request('GET', '/api/admin/settings', { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const settings = Object.fromEntries((res.json as unknown as SettingsEnvelope).data.settings.map((s) => [s.name, s.value]));
    expect(settings).toMatchObject({
      SESSION_SECRET: 'set',
      METRICS_TOKEN: 'set',
      VAPID_PRIVATE_KEY: 'set',
      'SMTP password': 'set',
      SMTP_URL: `smtp://127.0.0.1:${t.mail.port}`,
      REGISTRATION: 'open',
      APP_ORIGIN: 'http://localhost:3000',
    });
    for (const secret of ['hunter2-smtp', 'metrics-token-0123456789', t.config.sessionSecret, t.config.vapid.privateKey]) expect(res.body).not.toContain(secret);
  });

  it('says its own words in the admin’s language; variable names and values stay as they are', async () => {
    const admin = await createAdmin();
    await setAccountLanguage(t, admin.cookie, 'de');
    const res = await t.request('GET', '/api/admin/settings', { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const settings = Object.fromEntries((res.json as unknown as SettingsEnvelope).data.settings.map((s) => [s.name, s.value]));
    expect(settings).toMatchObject({ SESSION_SECRET: 'gesetzt', METRICS_TOKEN: 'nicht gesetzt', 'S3-Zugriffsschlüssel': 'nicht gesetzt', REGISTRATION: 'open' });
    expect(settings.OIDC_PROVIDERS).toBe('nicht angegeben');
  });

  it('names every setting of the README table; S3 and PostgreSQL credentials hidden', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z0-9_]+)`(?: \/ `([A-Z0-9_]+)`)? \|/gm)].flatMap((m) => [m[1], m[2]]).filter((n) => n !== undefined);
    const config = loadConfig({
      SESSION_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://taskwise:pg-secret-pw@db.example:5432/taskwise',
      S3_URL: 's3://AKIAEXAMPLE:s3-secret-key@minio.example:9000/bucket?forcePathStyle=true',
      VAPID_PUBLIC_KEY: t.config.vapid.publicKey,
      VAPID_PRIVATE_KEY: t.config.vapid.privateKey,
    });
    const described = describeSettings(config);
    expect(documented.length).toBeGreaterThan(20);
    for (const name of documented) expect(described.map((s) => s.name)).toContain(name);
    const text = JSON.stringify(described);
    for (const secret of ['pg-secret-pw', 'AKIAEXAMPLE', 's3-secret-key', config.sessionSecret]) expect(text).not.toContain(secret);
    expect(described).toContainEqual({ name: 'DATABASE_URL', value: 'postgres://db.example:5432/taskwise', said: false });
    expect(described).toContainEqual({ name: 'S3 secret key', value: 'set', said: true });
    expect(described).toContainEqual({ name: 'METRICS_TOKEN', value: 'not set', said: true });
  });
});

describe('admin actions are limited like other writes', () => {
  it('past the hourly limit an admin action answers 429 with Retry-After, and nothing changes', async () => {
    const admin = await createAdmin();
    const { user } = await createSignedInUser(t);
    const now = t.clock.now().toISOString();
    await t.app.db
      .insertInto('rateLimitHits')
      .values(Array.from({ length: 300 }, (_, i) => ({ id: `hit-${user.id}-${i}`, key: `admin-action:${admin.user.id}`, hitAt: now })))
      .execute();
    const res = await t.request('POST', `/api/admin/accounts/${user.id}/deactivate`, { cookie: admin.cookie });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await t.app.db.selectFrom('users').select('deactivatedAt').where('id', '=', user.id).executeTakeFirstOrThrow()).deactivatedAt).toBeNull();
  });
});
