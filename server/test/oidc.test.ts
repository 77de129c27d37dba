import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { LOGIN_POLICY } from '#shared/constants.ts';
import { OIDC_ERROR_MESSAGES } from '#shared/oidc.ts';
import { createSignedInUser, createUser, nextIp, uniqueEmail } from './factories.ts';
import { MINUTE, TEST_ORIGIN, useTestApp, type Response } from './helpers.ts';
import { providersSetting, signInAtProvider, startTestProvider, type ProviderAccount, type TestProvider } from './oidc-provider.ts';

/**
 * Sign-in with OpenID Connect against a real provider (`oidc-provider`) that this file starts on
 * 127.0.0.1: the browser's part at the provider is walked over HTTP, the app's part through the
 * app as production builds it.
 */

const env: Record<string, string> = {};
const t = useTestApp({ env });
let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider([`${TEST_ORIGIN}/api/auth/oidc/test/callback`]);
  env.OIDC_PROVIDERS = providersSetting(op);
});
afterAll(async () => {
  await op.stop();
});

let subjects = 0;
/** A person with an account at the provider. */
function providerAccount(claims: Partial<ProviderAccount> = {}): ProviderAccount {
  subjects += 1;
  const account = { sub: `subject-${subjects}-${Date.now()}`, email: uniqueEmail('sso'), email_verified: true, name: `Sam Single ${subjects}`, ...claims };
  op.accounts.set(account.sub, account);
  return account;
}

const flowCookieOf = (res: Response) =>
  ([] as (string | undefined)[])
    .concat(res.headers['set-cookie'] as string | string[] | undefined)
    .find((c) => c?.startsWith('taskwise_oidc='))
    ?.split(';')[0];

/** Starts a sign-in as the browser does (a link), answers the provider URL and the flow cookie. */
async function startSignIn(options: { returnTo?: string; ip?: string } = {}) {
  const query = options.returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(options.returnTo)}`;
  const res = await t.request('GET', `/api/auth/oidc/test/start${query}`, options.ip === undefined ? {} : { ip: options.ip });
  expect(res.status, res.body).toBe(302);
  return { location: String(res.headers.location), flowCookie: flowCookieOf(res) ?? '' };
}

/** The provider's answer delivered to the app's callback, with the browser's cookies. */
const deliver = (callback: URL, cookie: string, ip?: string) =>
  t.request('GET', `${callback.pathname}${callback.search}`, { cookie, ...(ip === undefined ? {} : { ip }) });

/** A whole sign-in: start, the provider's login as `account`, the callback. */
async function signInWith(account: ProviderAccount, options: { returnTo?: string } = {}) {
  const { location, flowCookie } = await startSignIn(options);
  const callback = await signInAtProvider(location, account.sub, TEST_ORIGIN);
  return { res: await deliver(callback, flowCookie), callback, flowCookie };
}

const me = (cookie: string) => t.request('GET', '/api/users/me', { cookie });
const countUsers = () => t.app.usersRepository.countAll();
const identitiesOf = (userId: string) => t.app.db.selectFrom('userIdentities').selectAll().where('userId', '=', userId).execute();
const expectRefused = (res: Response, code: keyof typeof OIDC_ERROR_MESSAGES) => {
  expect(res.status, res.body).toBe(302);
  expect(res.headers.location).toBe(`/login?error=${code}`);
  expect(res.sessionCookie).toBeUndefined();
};

describe('GET /api/auth/providers', () => {
  it('lists the providers by id and name, and gives the text of an error code', async () => {
    const res = await t.request('GET', '/api/auth/providers?error=oidc_expired');
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ providers: [{ id: 'test', name: 'Test ID' }], error: OIDC_ERROR_MESSAGES.oidc_expired });
    const unknown = await t.request('GET', '/api/auth/providers?error=<script>');
    expect((unknown.json.data as unknown as { error: unknown }).error).toBeNull();
  });
});

describe('OIDC_PROVIDERS', () => {
  const load = (value: string) => () => loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(32), VAPID_PUBLIC_KEY: '', OIDC_PROVIDERS: value }, '/tmp');
  it('stops the start with one line naming the variable for a bad value', () => {
    expect(load('not json')).toThrow(ConfigError);
    expect(load('not json')).toThrow(/^Invalid configuration: OIDC_PROVIDERS is not valid JSON/);
    expect(load('[{"id":"a","name":"A","issuer":"http://idp.example.com","clientId":"c","clientSecret":"s"}]')).toThrow(/issuer must be https/);
    expect(load('[{"id":"a","name":"A","issuer":"https://idp.example.com","clientId":"c"}]')).toThrow(/\[0\]\.clientSecret must be a non-empty string/);
    expect(load('[{"id":"A B","name":"A","issuer":"https://idp.example.com","clientId":"c","clientSecret":"s"}]')).toThrow(/\[0\]\.id must be/);
  });
  it('takes https issuers, and http ones on loopback', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        SESSION_SECRET: 'x'.repeat(32),
        OIDC_PROVIDERS: JSON.stringify([
          { id: 'corp', name: 'Corp', issuer: 'https://id.example.com/realms/x', clientId: 'c', clientSecret: 's', scopes: ['email'] },
          { id: 'local', name: 'Local', issuer: 'http://127.0.0.1:9999', clientId: 'c', clientSecret: 's' },
        ]),
      },
      '/tmp',
    );
    expect(config.oidcProviders.map((p) => [p.id, p.scopes.join(' ')])).toEqual([
      ['corp', 'openid email'],
      ['local', 'openid email profile'],
    ]);
  });
});

describe('signing in with a provider', () => {
  it('makes an account without a password on the first sign-in, and signs in to it again later', async () => {
    const account = providerAccount();
    const before = await countUsers();
    const { res } = await signInWith(account, { returnTo: '/boards?view=all' });
    expect(res.status, res.body).toBe(302);
    expect(res.headers.location).toBe('/login?next=%2Fboards%3Fview%3Dall#signed-in');
    expect(res.sessionCookie).toBeDefined();
    const signedIn = await me(res.sessionCookie ?? '');
    expect(signedIn.json.data.user).toEqual({ email: account.email, fullName: account.name });
    expect(await countUsers()).toBe(before + 1);
    const user = await t.app.usersRepository.findByEmail(account.email ?? '');
    expect(user?.passwordHash).toBe('!');
    // No password signs in to it.
    const login = await t.request('POST', '/api/users/login', { body: { email: account.email, password: '!' } });
    expect(login.status).toBe(401);

    const again = await signInWith(account);
    expect(again.res.headers.location).toBe('/login#signed-in');
    expect((await me(again.res.sessionCookie ?? '')).json.data.user.email).toBe(account.email);
    expect(await countUsers()).toBe(before + 1);
    expect(await identitiesOf(user?.id ?? '')).toEqual([expect.objectContaining({ providerId: 'test', subject: account.sub })]);
  });

  it("gives a new account the language of the browser's Accept-Language, and its week and clock", async () => {
    const account = providerAccount();
    const { location, flowCookie } = await startSignIn();
    const callback = await signInAtProvider(location, account.sub, TEST_ORIGIN);
    const res = await t.request('GET', `${callback.pathname}${callback.search}`, { cookie: flowCookie, headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' } });
    expect(res.status, res.body).toBe(302);
    expect(res.sessionCookie).toBeDefined();
    const row = await t.app.db.selectFrom('users').select(['language', 'weekStart', 'hourCycle']).where('email', '=', account.email ?? '').executeTakeFirstOrThrow();
    expect(row).toEqual({ language: 'fr', weekStart: 'monday', hourCycle: 'h23' });
  });

  it('goes back only to a path of this app (no open redirect)', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/.//evil.example', '/%2e//evil.example', '/a/..//evil.example', '/api/users/logout']) {
      const { res } = await signInWith(providerAccount(), { returnTo });
      expect(res.headers.location, returnTo).toBe('/login#signed-in');
    }
  });

  it('links an existing account by its address when the provider says it is verified', async () => {
    const user = await createUser(t);
    const account = providerAccount({ email: user.email.toUpperCase(), email_verified: true });
    const before = await countUsers();
    const { res } = await signInWith(account);
    expect(res.status).toBe(302);
    expect((await me(res.sessionCookie ?? '')).json.data.user.email).toBe(user.email);
    expect(await countUsers()).toBe(before);
    expect(await identitiesOf(user.id)).toEqual([expect.objectContaining({ subject: account.sub, email: user.email })]);
  });

  it('refuses an unverified address that matches an account: no session, no link', async () => {
    const user = await createUser(t);
    const { res } = await signInWith(providerAccount({ email: user.email, email_verified: false }));
    expectRefused(res, 'oidc_unverified');
    expect(await identitiesOf(user.id)).toEqual([]);
  });

  it('sends a deactivated account back to the sign-in page saying so: no session', async () => {
    const user = await createUser(t);
    await t.app.db.updateTable('users').set({ deactivatedAt: t.clock.now().toISOString() }).where('id', '=', user.id).execute();
    const { res } = await signInWith(providerAccount({ email: user.email }));
    expectRefused(res, 'account_deactivated');
    const text = await t.request('GET', '/api/auth/providers?error=account_deactivated');
    expect((text.json.data as unknown as { error: string }).error).toBe('This account has been deactivated. Ask an administrator of this server to reactivate it.');
  });

  it('makes no account for an unverified address either', async () => {
    const before = await countUsers();
    const { res } = await signInWith(providerAccount({ email_verified: false }));
    expectRefused(res, 'oidc_unverified');
    expect(await countUsers()).toBe(before);
  });

  it('reads the address from the ID token when it says whether it is verified, else from userinfo', async () => {
    // Every claim in the ID token: the address and its verification are read there.
    const whole = providerAccount({ idToken: 'all' });
    const { res } = await signInWith(whole);
    expect((await me(res.sessionCookie ?? '')).json.data.user).toEqual({ email: whole.email, fullName: whole.name });

    // The address in the ID token without `email_verified`: userinfo says it is verified, so an
    // existing account with that address is linked (it was refused as unverified before).
    const user = await createUser(t);
    const linked = providerAccount({ email: user.email, email_verified: true, idToken: 'without-email-verified' });
    const second = await signInWith(linked);
    expect((await me(second.res.sessionCookie ?? '')).json.data.user.email).toBe(user.email);
    expect(await identitiesOf(user.id)).toEqual([expect.objectContaining({ subject: linked.sub })]);

    // Neither says it is verified: refused, nothing made.
    const before = await countUsers();
    const unverified = await signInWith(providerAccount({ email_verified: false, idToken: 'without-email-verified' }));
    expectRefused(unverified.res, 'oidc_unverified');
    expect(await countUsers()).toBe(before);
  });

  it('makes no account where registration is closed, and says why', async () => {
    await t.rebuild({ REGISTRATION: 'closed' });
    const before = await countUsers();
    const { res } = await signInWith(providerAccount());
    expectRefused(res, 'registration_closed');
    expect(await countUsers()).toBe(before);
    const text = await t.request('GET', '/api/auth/providers?error=registration_closed');
    expect((text.json.data as unknown as { error: string }).error).toBe('Sign-up on this server is closed.');
    // An existing account still signs in with its verified address.
    const user = await createUser(t);
    const existing = await signInWith(providerAccount({ email: user.email }));
    expect((await me(existing.res.sessionCookie ?? '')).json.data.user.email).toBe(user.email);
  });

  it('makes an account only at the allowed domains', async () => {
    await t.rebuild({ REGISTRATION_DOMAINS: 'allowed.test' });
    const { res } = await signInWith(providerAccount({ email: uniqueEmail('x').replace('example.test', 'other.test') }));
    expectRefused(res, 'registration_closed');
    const allowed = await signInWith(providerAccount({ email: uniqueEmail('x').replace('example.test', 'allowed.test') }));
    expect(allowed.res.sessionCookie).toBeDefined();
  });

  it('refuses a wrong state, a missing state and an answer without the browser cookie', async () => {
    const account = providerAccount();
    const { location, flowCookie } = await startSignIn();
    const callback = await signInAtProvider(location, account.sub, TEST_ORIGIN);
    const wrong = new URL(callback);
    wrong.searchParams.set('state', 'not-the-state');
    expectRefused(await deliver(wrong, flowCookie), 'oidc_state');
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expectRefused(await deliver(missing, flowCookie), 'oidc_state');
    // Another browser (another flow cookie) cannot use this answer.
    const other = await startSignIn();
    expectRefused(await deliver(callback, other.flowCookie), 'oidc_state');
    expectRefused(await deliver(callback, ''), 'oidc_state');
    expect(await t.app.usersRepository.findByEmail(account.email ?? '')).toBeUndefined();
    // The right browser still can: nothing above used the flow up.
    const right = await deliver(callback, flowCookie);
    expect(right.sessionCookie).toBeDefined();
  });

  it('refuses a replayed answer', async () => {
    const { res, callback, flowCookie } = await signInWith(providerAccount());
    expect(res.sessionCookie).toBeDefined();
    expectRefused(await deliver(callback, flowCookie), 'oidc_replayed');
  });

  it('refuses an answer after the flow expired (10 minutes), and housekeeping deletes it', async () => {
    const account = providerAccount();
    const { location, flowCookie } = await startSignIn();
    const callback = await signInAtProvider(location, account.sub, TEST_ORIGIN);
    t.clock.advance(10 * MINUTE + 1);
    expectRefused(await deliver(callback, flowCookie), 'oidc_expired');
    expect(await t.app.usersRepository.findByEmail(account.email ?? '')).toBeUndefined();
    const { sweep } = await import('../plugins/housekeeping.ts');
    expect((await sweep(t.app)).oidcFlows).toBeGreaterThanOrEqual(1);
  });

  it('says so when the provider is down, at the start or at the answer', async () => {
    const account = providerAccount();
    const { location, flowCookie } = await startSignIn();
    const callback = await signInAtProvider(location, account.sub, TEST_ORIGIN);
    await op.stop();
    try {
      expectRefused(await deliver(callback, flowCookie), 'oidc_unavailable');
      await t.rebuild();
      const start = await t.request('GET', '/api/auth/oidc/test/start');
      expect(start.status).toBe(302);
      expect(start.headers.location).toBe('/login?error=oidc_unavailable');
    } finally {
      await op.start();
    }
    expect(await t.app.usersRepository.findByEmail(account.email ?? '')).toBeUndefined();
  });

  it('counts the answer against the per-IP sign-in limit', async () => {
    const ip = nextIp();
    // 99 attempts of the window used (as password sign-ins would), then the provider's answer is the 100th.
    for (let i = 1; i < LOGIN_POLICY.maxAttemptsPerIp; i += 1) expect(await t.app.rateLimits.loginPerIp.hit(ip)).toBe(0);
    const first = await startSignIn({ ip });
    const answer = await deliver(await signInAtProvider(first.location, providerAccount().sub, TEST_ORIGIN), first.flowCookie, ip);
    expect(answer.sessionCookie).toBeDefined();
    const second = await startSignIn({ ip });
    const refused = await deliver(await signInAtProvider(second.location, providerAccount().sub, TEST_ORIGIN), second.flowCookie, ip);
    expectRefused(refused, 'rate_limited');
    // And the password sign-in from there is over the limit too.
    const login = await t.request('POST', '/api/users/login', { body: { email: uniqueEmail(), password: 'guess' }, ip });
    expect(login.status).toBe(429);
  });

  it('asks the second step of an account that turned it on', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const setup = await t.request('POST', '/api/account/two-step/setup', { cookie });
    const secret = (setup.json.data as unknown as { secret: string }).secret;
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: totp.generate({ timestamp: t.clock.now().getTime() }) } })).status).toBe(200);
    t.clock.advance(30_000);

    const { res } = await signInWith(providerAccount({ email: user.email }));
    expect(res.status).toBe(302);
    expect(res.sessionCookie).toBeUndefined();
    const token = /^\/login#second-step=([A-Za-z0-9_-]{43})$/.exec(String(res.headers.location))?.[1] ?? '';
    const done = await t.request('POST', '/api/users/login/second-step', { body: { token, code: totp.generate({ timestamp: t.clock.now().getTime() }) } });
    expect(done.status, done.body).toBe(200);
    expect((await me(done.sessionCookie ?? '')).json.data.user.email).toBe(user.email);
  });
});

describe('linked providers on the account page', () => {
  interface IdentitiesData {
    identities: { providerId: string; providerName: string; email: string }[];
    providers: { id: string; name: string }[];
    hasPassword: boolean;
  }
  const list = async (cookie: string) => (await t.request('GET', '/api/account/identities', { cookie })).json.data as unknown as IdentitiesData;

  it('links a provider to a signed-in account and unlinks it', async () => {
    const { user, cookie } = await createSignedInUser(t);
    expect(await list(cookie)).toEqual({ identities: [], providers: [{ id: 'test', name: 'Test ID' }], hasPassword: true });
    const start = await t.request('POST', '/api/account/identities/test', { cookie, body: {} });
    expect(start.status, start.body).toBe(200);
    const flowCookie = flowCookieOf(start) ?? '';
    const account = providerAccount({ email: uniqueEmail('elsewhere'), email_verified: false });
    const callback = await signInAtProvider((start.json.data as unknown as { url: string }).url, account.sub, TEST_ORIGIN);
    const linked = await deliver(callback, `${flowCookie}; ${cookie}`);
    expect(linked.status).toBe(302);
    expect(linked.headers.location).toBe('/account?oidcLinked=test');
    expect((await list(cookie)).identities).toEqual([expect.objectContaining({ providerId: 'test', providerName: 'Test ID', email: account.email })]);

    // Now the provider signs in to this account (the link, not the address, finds it).
    const viaProvider = await signInWith(account);
    expect((await me(viaProvider.res.sessionCookie ?? '')).json.data.user.email).toBe(user.email);

    const unlink = await t.request('DELETE', '/api/account/identities/test', { cookie });
    expect(unlink.status, unlink.body).toBe(200);
    expect((await list(cookie)).identities).toEqual([]);
    const again = await t.request('DELETE', '/api/account/identities/test', { cookie });
    expect(again.status).toBe(404);
  });

  it('refuses to link a provider account that another account has', async () => {
    const account = providerAccount();
    await signInWith(account);
    const { cookie } = await createSignedInUser(t);
    const start = await t.request('POST', '/api/account/identities/test', { cookie, body: {} });
    const callback = await signInAtProvider((start.json.data as unknown as { url: string }).url, account.sub, TEST_ORIGIN);
    const res = await deliver(callback, `${flowCookieOf(start) ?? ''}; ${cookie}`);
    expect(res.headers.location).toBe('/account?oidcError=oidc_taken');
  });

  it('answers 409 LAST_SIGN_IN_METHOD when the provider is the last way to sign in', async () => {
    const { res } = await signInWith(providerAccount());
    const cookie = res.sessionCookie ?? '';
    expect((await list(cookie)).hasPassword).toBe(false);
    const unlink = await t.request('DELETE', '/api/account/identities/test', { cookie });
    expect(unlink.status).toBe(409);
    expect(unlink.json.code).toBe('LAST_SIGN_IN_METHOD');
    expect((await list(cookie)).identities).toHaveLength(1);
  });

  it('needs a session', async () => {
    expect((await t.request('GET', '/api/account/identities')).status).toBe(401);
    expect((await t.request('DELETE', '/api/account/identities/test')).status).toBe(401);
  });
});
