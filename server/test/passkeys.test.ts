import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES, PASSKEY_POLICY } from '#shared/passkeys.ts';
import type { Passkey } from '#shared/schemas/passkeys.ts';
import { createSignedInUser, createUser, nextIp, signIn } from './factories.ts';
import { TEST_ORIGIN, useTestApp } from './helpers.ts';
import { SoftAuthenticator, type Tamper } from './soft-authenticator.ts';
import { NO_PASSWORD_HASH } from '../services/passwords.ts';

/**
 * Passkeys through real WebAuthn ceremonies: the answers are made by a software authenticator
 * (test/soft-authenticator.ts, node:crypto and the specifications), checked by the server as a
 * browser's would be. TEST_ORIGIN is http://localhost:3000: the RP ID is `localhost`.
 */
const t = useTestApp();

interface Data {
  options: { challenge: string; rp: { id: string; name: string }; user: { id: string; name: string; displayName: string }; rpId?: string; allowCredentials?: { id: string }[]; authenticatorSelection?: Record<string, string> };
  passkey: Passkey;
  passkeys: Passkey[];
  secret: string;
}
const data = (res: { json: unknown }) => (res.json as { data: Data }).data;

const registrationOptions = async (cookie: string) => {
  const res = await t.request('POST', '/api/account/passkeys/options', { cookie });
  expect(res.status, res.body).toBe(200);
  return data(res).options;
};
const addPasskey = (cookie: string, response: unknown, name?: string) =>
  t.request('POST', '/api/account/passkeys', { cookie, body: { response, ...(name === undefined ? {} : { name }) } });

/** Adds a passkey made by `authenticator` to the account; answers its listing. */
async function register(cookie: string, authenticator: SoftAuthenticator, name = 'Laptop'): Promise<Passkey> {
  const { response } = authenticator.create(await registrationOptions(cookie));
  const res = await addPasskey(cookie, response, name);
  expect(res.status, res.body).toBe(201);
  return data(res).passkey;
}

const signInOptions = async (ip?: string) => {
  const res = await t.request('POST', '/api/users/login/passkey/options', ip === undefined ? {} : { ip });
  expect(res.status, res.body).toBe(200);
  return data(res).options;
};
const passkeySignIn = (response: unknown, ip?: string) => t.request('POST', '/api/users/login/passkey', { body: { response }, ...(ip === undefined ? {} : { ip }) });
/** One whole passkey sign-in with the authenticator's newest credential. */
const signInWith = async (authenticator: SoftAuthenticator, tamper: Tamper = {}) => passkeySignIn(authenticator.get(await signInOptions(), tamper));

const listOf = async (cookie: string) => data(await t.request('GET', '/api/account/passkeys', { cookie })).passkeys;
const me = (cookie: string) => t.request('GET', '/api/users/me', { cookie });

function expectRefused(res: { status: number; json: unknown; sessionCookie: string | undefined }, status: 400 | 401) {
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({ status: 'fail', code: 'PASSKEY_NOT_ACCEPTED', message: status === 400 ? PASSKEY_MESSAGES.notAdded : PASSKEY_MESSAGES.signInFailed });
  // A refused sign-in starts no session (a signed-in call may renew its own cookie).
  if (status === 401) expect(res.sessionCookie).toBeUndefined();
}

describe('adding a passkey', () => {
  it('asks for a discoverable credential with user verification, for the RP ID of APP_ORIGIN', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const options = await registrationOptions(cookie);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Taskwise' });
    expect(options.user.name).toBe(user.email);
    expect(options.user.displayName).toBe(user.fullName);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
  });

  it('stores the credential, named, and lists it with when it was made and last used', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const passkey = await register(cookie, authenticator, '  Work laptop  ');
    expect(passkey).toEqual({ id: expect.any(String) as string, name: 'Work laptop', createdAt: t.clock.now().toISOString(), lastUsedAt: null, backedUp: false });
    expect(await listOf(cookie)).toEqual([passkey]);
    const row = await t.app.db.selectFrom('passkeys').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(row.credentialId).toBe(Buffer.from(authenticator.credentials[0]?.id ?? []).toString('base64url'));
    expect(row.transports).toBe('["internal"]');
    // The challenge was used up.
    expect(await t.app.db.selectFrom('webauthnChallenges').select('challenge').where('userId', '=', user.id).execute()).toEqual([]);
  });

  it('names it "Passkey" when no name is given, and refuses a name too long', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const res = await addPasskey(cookie, authenticator.create(await registrationOptions(cookie)).response);
    expect(res.status, res.body).toBe(201);
    expect(data(res).passkey.name).toBe(PASSKEY_POLICY.defaultName);
    const long = await addPasskey(cookie, authenticator.create(await registrationOptions(cookie)).response, 'x'.repeat(61));
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'name', message: PASSKEY_MESSAGES.nameInvalid }] });
    expect(await listOf(cookie)).toHaveLength(1);
  });

  it('refuses an answer without user verification, from another origin or RP ID, or to a challenge not handed out', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    for (const tamper of [{ noUserVerification: true }, { origin: 'http://evil.example:3000' }, { rpId: 'evil.example' }, { challenge: 'bm90LWhhbmRlZC1vdXQ' }] satisfies Tamper[]) {
      expectRefused(await addPasskey(cookie, authenticator.create(await registrationOptions(cookie), tamper).response), 400);
    }
    expect(await listOf(cookie)).toEqual([]);
  });

  it('uses a challenge once, for the account it was made for, and not after 5 minutes', async () => {
    const { cookie } = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const { response } = authenticator.create(await registrationOptions(cookie));
    expectRefused(await addPasskey(other.cookie, response), 400);

    const replayed = authenticator.create(await registrationOptions(cookie)).response;
    expect((await addPasskey(cookie, replayed)).status).toBe(201);
    expectRefused(await addPasskey(cookie, replayed), 400);

    const late = authenticator.create(await registrationOptions(cookie)).response;
    t.clock.advance(PASSKEY_POLICY.challengeTtlMs);
    expectRefused(await addPasskey(cookie, late), 400);
    expect(await listOf(cookie)).toHaveLength(1);
    expect(await listOf(other.cookie)).toEqual([]);
  });
});

describe('signing in with a passkey', () => {
  it('signs in without an e-mail: a session as after a password, the use and counter recorded', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const passkey = await register(cookie, authenticator);
    const options = await signInOptions();
    expect(options.rpId).toBe('localhost');
    expect(options.allowCredentials).toBeUndefined();

    t.clock.advance(60_000);
    const res = await passkeySignIn(authenticator.get(options));
    expect(res.status, res.body).toBe(200);
    expect(res.json).toMatchObject({ status: 'success', data: { user: { fullName: user.fullName, email: user.email } } });
    expect(res.sessionCookie).toBeDefined();
    expect((await me(res.sessionCookie ?? '')).status).toBe(200);
    expect(await listOf(cookie)).toEqual([{ ...passkey, lastUsedAt: t.clock.now().toISOString() }]);
    const row = await t.app.db.selectFrom('passkeys').select(['counter', 'backedUp']).where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ counter: 1, backedUp: 0 });
  });

  it('asks no code after it, even when the account has an authenticator app', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    await register(cookie, authenticator);
    const { secret } = data(await t.request('POST', '/api/account/two-step/setup', { cookie }));
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code } })).status).toBe(200);
    // A password now asks for the code; the passkey does not.
    const password = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } });
    expect(password.sessionCookie).toBeUndefined();
    const res = await signInWith(authenticator);
    expect(res.status, res.body).toBe(200);
    expect(res.sessionCookie).toBeDefined();
  });

  it('refuses a challenge not handed out, a replayed answer, and an expired challenge', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    await register(cookie, authenticator);

    expectRefused(await passkeySignIn(authenticator.get({ challenge: 'bm90LWhhbmRlZC1vdXQ', rpId: 'localhost' })), 401);
    // A registration challenge is not a sign-in challenge.
    expectRefused(await passkeySignIn(authenticator.get({ challenge: (await registrationOptions(cookie)).challenge, rpId: 'localhost' })), 401);

    const answer = authenticator.get(await signInOptions());
    expect((await passkeySignIn(answer)).status).toBe(200);
    expectRefused(await passkeySignIn(answer), 401);

    const late = authenticator.get(await signInOptions());
    t.clock.advance(PASSKEY_POLICY.challengeTtlMs);
    expectRefused(await passkeySignIn(late), 401);
  });

  it('refuses another origin, another RP ID, and an answer without user verification', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    await register(cookie, authenticator);
    expectRefused(await signInWith(authenticator, { origin: 'https://localhost.evil.example' }), 401);
    expectRefused(await signInWith(authenticator, { rpId: 'evil.example' }), 401);
    expectRefused(await signInWith(authenticator, { noUserVerification: true }), 401);
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it('refuses a counter that did not go up (a cloned authenticator), and keeps the highest seen', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const passkey = await register(cookie, authenticator);
    expect((await signInWith(authenticator, { counter: 5 })).status).toBe(200);
    expectRefused(await signInWith(authenticator, { counter: 5 }), 401);
    expectRefused(await signInWith(authenticator, { counter: 3 }), 401);
    expect((await signInWith(authenticator, { counter: 6 })).status).toBe(200);
    const row = await t.app.db.selectFrom('passkeys').select('counter').where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(row.counter).toBe(6);
  });

  it('accepts an authenticator that keeps no counter (always 0)', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN, 0);
    await register(cookie, authenticator);
    expect((await signInWith(authenticator)).status).toBe(200);
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it('refuses the credential of a removed passkey', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const passkey = await register(cookie, authenticator);
    expect((await t.request('DELETE', `/api/account/passkeys/${passkey.id}`, { cookie })).status).toBe(204);
    expectRefused(await signInWith(authenticator), 401);
  });

  it('counts refused answers, not successful ones, against the IP\'s sign-in attempts', async () => {
    const { cookie } = await createSignedInUser(t);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    await register(cookie, authenticator);
    const [refused, signedIn] = [nextIp(), nextIp()];
    for (const ip of [refused, signedIn]) for (let i = 0; i < 99; i += 1) expect(await t.app.rateLimits.loginPerIp.hit(ip)).toBe(0);

    expectRefused(await passkeySignIn(authenticator.get({ challenge: 'bm90LWhhbmRlZC1vdXQ', rpId: 'localhost' }), refused), 401);
    const limited = await passkeySignIn(authenticator.get(await signInOptions()), refused);
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe('RATE_LIMITED');

    expect((await passkeySignIn(authenticator.get(await signInOptions()), signedIn)).status).toBe(200);
    // The success was not counted: the 100th attempt is still there.
    expect(await t.app.rateLimits.loginPerIp.hit(signedIn)).toBe(0);
    expect(await t.app.rateLimits.loginPerIp.hit(signedIn)).toBeGreaterThan(0);
  });
});

describe('renaming and removing passkeys', () => {
  it('renames and removes my own passkeys only', async () => {
    const { cookie } = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const passkey = await register(cookie, new SoftAuthenticator(TEST_ORIGIN));

    const renamed = await t.request('PATCH', `/api/account/passkeys/${passkey.id}`, { cookie, body: { name: ' Phone ' } });
    expect(renamed.status, renamed.body).toBe(200);
    expect(data(renamed).passkey).toEqual({ ...passkey, name: 'Phone' });
    expect((await t.request('PATCH', `/api/account/passkeys/${passkey.id}`, { cookie, body: { name: '  ' } })).json.code).toBe('VALIDATION_FAILED');

    expect((await t.request('PATCH', `/api/account/passkeys/${passkey.id}`, { cookie: other.cookie, body: { name: 'Mine' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/account/passkeys/${passkey.id}`, { cookie: other.cookie })).status).toBe(404);
    expect(await listOf(cookie)).toEqual([{ ...passkey, name: 'Phone' }]);

    expect((await t.request('DELETE', `/api/account/passkeys/${passkey.id}`, { cookie })).status).toBe(204);
    expect(await listOf(cookie)).toEqual([]);
    expect((await t.request('DELETE', `/api/account/passkeys/${passkey.id}`, { cookie })).status).toBe(404);
  });

  it('never removes the last way to sign in: 409 LAST_SIGN_IN_METHOD for an account without a password', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const [first, second] = [await register(cookie, new SoftAuthenticator(TEST_ORIGIN)), await register(cookie, new SoftAuthenticator(TEST_ORIGIN))];
    // An account made without a password (as single sign-on makes them) holds the no-password mark.
    await t.app.db.updateTable('users').set({ passwordHash: NO_PASSWORD_HASH }).where('id', '=', user.id).execute();

    expect((await t.request('DELETE', `/api/account/passkeys/${first.id}`, { cookie })).status).toBe(204);
    const last = await t.request('DELETE', `/api/account/passkeys/${second.id}`, { cookie });
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ status: 'fail', code: 'LAST_SIGN_IN_METHOD', message: PASSKEY_MESSAGES.lastSignInMethod });
    expect(await listOf(cookie)).toEqual([second]);
  });

  it('is not open to an API token', async () => {
    const { cookie } = await createSignedInUser(t);
    const created = await t.request('POST', '/api/tokens', { cookie, body: { name: 'Script', access: 'write' } });
    expect(created.status, created.body).toBe(201);
    const secret = (created.json.data as unknown as { secret: string }).secret;
    const res = await t.request('GET', '/api/account/passkeys', { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('TOKEN_NOT_ALLOWED');
  });
});

describe('REQUIRE_2FA=true', () => {
  it('accepts a passkey as the second step to set up', async () => {
    await t.rebuild({ REQUIRE_2FA: 'true' });
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    expect((await t.request('GET', '/api/tasks', { cookie })).json.code).toBe('SECOND_STEP_REQUIRED');
    expect(await listOf(cookie)).toEqual([]);
    const passkey = await register(cookie, new SoftAuthenticator(TEST_ORIGIN));
    expect((await t.request('GET', '/api/tasks', { cookie })).status).toBe(200);
    // Renaming is not part of the set-up, but is open once it is done.
    expect((await t.request('PATCH', `/api/account/passkeys/${passkey.id}`, { cookie, body: { name: 'Key' } })).status).toBe(200);
  });
});

