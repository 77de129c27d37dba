import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createUser, nextIp, signIn, type TestUser } from './factories.ts';
import { SECOND, useTestApp, type TestApp } from './helpers.ts';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';

const t = useTestApp();

/** The code an authenticator app holding `secret` shows now (on the test's clock). */
const codeNow = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now().getTime() });
/** A 6-digit code that is not the current one, nor one step either side. */
function wrongCode(secret: string): string {
  const near = [-30, 0, 30].map((s) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() + s * SECOND }));
  let code = 0;
  while (near.includes(String(code).padStart(6, '0'))) code += 1;
  return String(code).padStart(6, '0');
}
/** On to the next 30-second step, whose code has not been used yet. */
const nextStep = () => {
  t.clock.advance(30 * SECOND);
};

interface SetUp {
  secret: string;
  recoveryCodes: string[];
}
interface SetupData {
  data: { secret: string; uri: string; qrSvg: string; recoveryCodes: string[]; secondStep: { token: string; expiresAt: string }; twoStep: unknown };
}
const body = (res: { body: string }) => JSON.parse(res.body) as SetupData;

async function setUp(app: TestApp, cookie: string): Promise<SetUp> {
  const setup = await app.request('POST', '/api/account/two-step/setup', { cookie });
  expect(setup.status, setup.body).toBe(200);
  const { secret } = body(setup).data;
  const confirmed = await app.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: codeNow(secret) } });
  expect(confirmed.status, confirmed.body).toBe(200);
  nextStep();
  return { secret, recoveryCodes: body(confirmed).data.recoveryCodes };
}

/** A user with two-step sign-in on (and no session left over). */
async function userWithTwoStep(): Promise<TestUser & SetUp> {
  const { user, cookie } = await createSignedInUser(t);
  return { ...user, ...(await setUp(t, cookie)) };
}

const login = (user: Pick<TestUser, 'email' | 'password'>, ip?: string) =>
  t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, ...(ip === undefined ? {} : { ip }) });
async function passwordStep(user: Pick<TestUser, 'email' | 'password'>): Promise<string> {
  const res = await login(user);
  expect(res.status, res.body).toBe(200);
  expect(res.sessionCookie).toBeUndefined();
  return body(res).data.secondStep.token;
}
const secondStep = (proof: { token: string; code?: string; recoveryCode?: string }, ip?: string) =>
  t.request('POST', '/api/users/login/second-step', { body: proof, ...(ip === undefined ? {} : { ip }) });
const me = (cookie: string | undefined) => t.request('GET', '/api/users/me', { cookie: cookie ?? '' });
const status = async (cookie: string) => (await t.request('GET', '/api/account/two-step', { cookie })).json.data as unknown as { twoStep: unknown };

describe('setting up an authenticator app', () => {
  it('answers a secret, its otpauth:// URI and QR code, and turns on only after a right code', async () => {
    const { user, cookie } = await createSignedInUser(t);
    expect(await status(cookie)).toEqual({ twoStep: { enabled: false, recoveryCodesLeft: 0, required: false } });

    const setup = await t.request('POST', '/api/account/two-step/setup', { cookie });
    expect(setup.status).toBe(200);
    const { secret, uri, qrSvg } = body(setup).data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/Taskwise:${user.email}`);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({ secret, issuer: 'Taskwise', algorithm: 'SHA1', digits: '6', period: '30' });
    expect(qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    // Stored encrypted, and not on yet: the password alone still signs in.
    const row = await t.app.db.selectFrom('totpFactors').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secretBox).not.toContain(secret);
    expect(row.confirmedAt).toBeNull();
    await signIn(t, user);

    const wrong = await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: wrongCode(secret) } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('INVALID_CODE');
    const right = await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: codeNow(secret) } });
    expect(right.status).toBe(200);
    const codes = body(right).data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    // Only hashes are kept.
    const stored = await t.app.db.selectFrom('recoveryCodes').select('codeHash').where('userId', '=', user.id).execute();
    expect(stored.map((r) => r.codeHash)).not.toContain(codes[0]);
    expect(await status(cookie)).toEqual({ twoStep: { enabled: true, recoveryCodesLeft: 10, required: false } });

    // On: no second secret until it is off; confirming again is refused.
    expect((await t.request('POST', '/api/account/two-step/setup', { cookie })).status).toBe(409);
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code: codeNow(secret) } })).status).toBe(409);
  });

  it('needs a session: an anonymous call is 401', async () => {
    expect((await t.request('POST', '/api/account/two-step/setup')).status).toBe(401);
    expect((await t.request('GET', '/api/account/two-step')).status).toBe(401);
  });
});

describe('POST /api/users/login with two-step sign-in on', () => {
  it('answers a second-step token and no cookie; a right code then signs in, once', async () => {
    const user = await userWithTwoStep();
    const res = await login(user);
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json).toEqual({
      status: 'success',
      message: TWO_STEP_MESSAGES.secondStepNeeded,
      data: { secondStep: { token: expect.stringMatching(/^[\w-]{43}$/) as string, expiresAt: new Date(t.clock.now().getTime() + 5 * 60 * SECOND).toISOString() } },
    });

    const code = codeNow(user.secret);
    const done = await secondStep({ token: body(res).data.secondStep.token, code });
    expect(done.status, done.body).toBe(200);
    expect(done.json).toEqual({ status: 'success', message: SERVER_MESSAGES.loginSuccess, data: { user: { fullName: user.fullName, email: user.email } } });
    expect((await me(done.sessionCookie)).json.data.user.email).toBe(user.email);

    // The token is used up, and the same code is refused at the next sign-in.
    const again = await secondStep({ token: body(res).data.secondStep.token, code });
    expect(again.status).toBe(400);
    const replay = await secondStep({ token: await passwordStep(user), code });
    expect(replay.status).toBe(400);
    expect(replay.json).toMatchObject({ code: 'INVALID_CODE', message: TWO_STEP_MESSAGES.invalidCode });
    expect(replay.sessionCookie).toBeUndefined();
    nextStep();
    expect((await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).status).toBe(200);
  });

  it('ends the attempt after 5 wrong codes; a new password sign-in starts at once', async () => {
    const user = await userWithTwoStep();
    const token = await passwordStep(user);
    for (let i = 0; i < 5; i++) expect((await secondStep({ token, code: wrongCode(user.secret) })).json.code).toBe('INVALID_CODE');
    const late = await secondStep({ token, code: codeNow(user.secret) });
    expect(late.status).toBe(400);
    expect(late.sessionCookie).toBeUndefined();
    expect((await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).status).toBe(200);
  });

  it('refuses a token after 5 minutes, and an unknown one', async () => {
    const user = await userWithTwoStep();
    const token = await passwordStep(user);
    t.clock.advance(5 * 60 * SECOND);
    expect((await secondStep({ token, code: codeNow(user.secret) })).status).toBe(400);
    expect((await secondStep({ token: 'x'.repeat(43), code: codeNow(user.secret) })).status).toBe(400);
  });

  it('ends a sign-in waiting for its code when the password changes', async () => {
    const user = await userWithTwoStep();
    const cookie = (await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).sessionCookie ?? '';
    const waiting = await passwordStep(user);
    const changed = await t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword: user.password, newPassword: 'a brand new password' } });
    expect(changed.status, changed.body).toBe(200);
    nextStep();
    expect((await secondStep({ token: waiting, code: codeNow(user.secret) })).status).toBe(400);
    expect((await secondStep({ token: await passwordStep({ email: user.email, password: 'a brand new password' }), code: codeNow(user.secret) })).status).toBe(200);
  });

  it('takes each recovery code once (in any case, with or without dashes)', async () => {
    const user = await userWithTwoStep();
    const [first = '', second = ''] = user.recoveryCodes;
    const done = await secondStep({ token: await passwordStep(user), recoveryCode: first });
    expect(done.status, done.body).toBe(200);
    const cookie = done.sessionCookie ?? '';
    expect(await status(cookie)).toEqual({ twoStep: { enabled: true, recoveryCodesLeft: 9, required: false } });
    expect((await secondStep({ token: await passwordStep(user), recoveryCode: first })).status).toBe(400);
    expect((await secondStep({ token: await passwordStep(user), recoveryCode: ` ${second.replaceAll('-', '').toUpperCase()} ` })).status).toBe(200);
  });

  it('counts wrong codes among the account\'s sign-in failures: 10 in 15 minutes lock it', async () => {
    const user = await userWithTwoStep();
    // Each password sign-in is one (it is cleared only by a right code), each wrong code another.
    for (let round = 0; round < 2; round++) {
      const token = await passwordStep(user);
      for (let i = 0; i < 4; i++) expect((await secondStep({ token, code: wrongCode(user.secret) })).status).toBe(400);
    }
    const token = await passwordStep(user).catch(() => '');
    expect(token).toBe('');
    const locked = await login(user);
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    t.clock.advance(15 * 60 * SECOND);
    expect((await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).status).toBe(200);
  });

  it('has the per-IP sign-in limit (100 attempts), shared with the password step', async () => {
    const user = await userWithTwoStep();
    const ip = nextIp();
    const token = (await login(user, ip)).json.data as unknown as { secondStep: { token: string } };
    for (let i = 0; i < 99; i++) expect((await secondStep({ token: 'y'.repeat(43), code: '000000' }, ip)).status).toBe(400);
    const limited = await secondStep({ token: token.secondStep.token, code: codeNow(user.secret) }, ip);
    expect(limited.status).toBe(429);
    expect((await secondStep({ token: token.secondStep.token, code: codeNow(user.secret) }, nextIp())).status).toBe(200);
  });
});

describe('turning it off and renewing recovery codes', () => {
  it('off needs the password and a code; then the password alone signs in', async () => {
    const user = await userWithTwoStep();
    const cookie = (await secondStep({ token: await passwordStep(user), recoveryCode: user.recoveryCodes[0] ?? '' })).sessionCookie ?? '';
    const disable = (b: unknown) => t.request('POST', '/api/account/two-step/disable', { cookie, body: b });

    const wrongPassword = await disable({ password: 'not the password', code: codeNow(user.secret) });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.json.code).toBe('VALIDATION_FAILED');
    const wrong = await disable({ password: user.password, code: wrongCode(user.secret) });
    expect(wrong.json.code).toBe('INVALID_CODE');
    expect((await disable({ password: user.password })).json.code).toBe('INVALID_CODE');
    expect((await status(cookie))).toMatchObject({ twoStep: { enabled: true } });

    expect((await disable({ password: user.password, code: codeNow(user.secret) })).status).toBe(200);
    expect(await status(cookie)).toEqual({ twoStep: { enabled: false, recoveryCodesLeft: 0, required: false } });
    expect(await t.app.db.selectFrom('recoveryCodes').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    await signIn(t, user);
    expect((await disable({ password: user.password, code: codeNow(user.secret) })).status).toBe(409);
  });

  it('off also takes a recovery code', async () => {
    const user = await userWithTwoStep();
    const cookie = (await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).sessionCookie ?? '';
    const res = await t.request('POST', '/api/account/two-step/disable', { cookie, body: { password: user.password, recoveryCode: user.recoveryCodes[3] } });
    expect(res.status).toBe(200);
  });

  it('new recovery codes replace the old ones', async () => {
    const user = await userWithTwoStep();
    const cookie = (await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).sessionCookie ?? '';
    nextStep();
    const res = await t.request('POST', '/api/account/two-step/recovery-codes', { cookie, body: { password: user.password, code: codeNow(user.secret) } });
    expect(res.status, res.body).toBe(200);
    const fresh = body(res).data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await secondStep({ token: await passwordStep(user), recoveryCode: user.recoveryCodes[1] ?? '' })).status).toBe(400);
    expect((await secondStep({ token: await passwordStep(user), recoveryCode: fresh[0] ?? '' })).status).toBe(200);
  });

  it('an account\'s deletion takes its secret and codes', async () => {
    const user = await userWithTwoStep();
    const cookie = (await secondStep({ token: await passwordStep(user), code: codeNow(user.secret) })).sessionCookie ?? '';
    expect((await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } })).status).toBe(204);
    expect(await t.app.db.selectFrom('totpFactors').select('userId').where('userId', '=', user.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('recoveryCodes').select('id').where('userId', '=', user.id).execute()).toEqual([]);
  });
});

describe('REQUIRE_2FA=true', () => {
  it('holds an account without a second step to setting one up: other calls answer 403 SECOND_STEP_REQUIRED', async () => {
    await t.rebuild({ REQUIRE_2FA: 'true' });
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    const tasks = await t.request('GET', '/api/tasks', { cookie });
    expect(tasks.status).toBe(403);
    expect(tasks.json).toMatchObject({ status: 'fail', code: 'SECOND_STEP_REQUIRED', message: TWO_STEP_MESSAGES.setupRequired });
    expect((await t.request('PATCH', '/api/users/me', { cookie, body: { fullName: 'Nope' } })).json.code).toBe('SECOND_STEP_REQUIRED');
    expect((await me(cookie)).status).toBe(200);
    expect(await status(cookie)).toEqual({ twoStep: { enabled: false, recoveryCodesLeft: 0, required: true } });

    const { secret } = await setUp(t, cookie);
    expect((await t.request('GET', '/api/tasks', { cookie })).status).toBe(200);
    expect((await secondStep({ token: await passwordStep(user), code: codeNow(secret) })).status).toBe(200);
    expect((await t.request('POST', '/api/users/logout', { cookie })).status).toBe(200);
  });

  it('is off by default: an account without a second step may do everything', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await t.request('GET', '/api/tasks', { cookie })).status).toBe(200);
  });
});
