import { describe, expect, it } from 'vitest';
import { LOGIN_POLICY, OTP_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createUser, nextIp, uniqueEmail } from '../factories.ts';
import { DAY, HOUR, SECOND, useTestApp, type Response } from '../helpers.ts';
import { codeFrom } from '../mail-catcher.ts';

/**
 * Brute force and abuse (ASVS 2.2.1, 2.7.x, 11.1.4). The sequential rules — 5 wrong tries,
 * expiry, cooldown, hourly and per-IP caps, the login lock-out and its end, single use — are
 * proven in ../otps.test.ts, ../users-register.test.ts and ../users-login.test.ts. This file adds
 * what those do not: the limits under concurrent bursts (an attacker does not wait for answers),
 * limits combined (resends do not buy more guesses), forged client addresses, and Retry-After
 * values that are exact (one second early is still refused, on time is allowed).
 */
const t = useTestApp();

const login = (email: string, password: string, ip = nextIp(), headers: Record<string, string> = {}) =>
  t.request('POST', '/api/users/login', { body: { email, password }, ip, headers });
const requestCode = (email: string, ip = nextIp(), headers: Record<string, string> = {}) =>
  t.request('POST', '/api/otps', { body: { email }, ip, headers });
const register = (email: string, otp: string) =>
  t.request('POST', '/api/users/register', { body: { email, otp, fullName: 'Eve Guesser', password: 'a long enough password' } });
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

function expect429(res: Response, label: string): number {
  expect(res.status, `${label}: ${res.body}`).toBe(429);
  expect(res.json, label).toMatchObject({ status: 'fail', code: 'RATE_LIMITED' });
  const retryAfter = res.headers['retry-after'];
  expect(String(retryAfter), `${label}: Retry-After`).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}

const tally = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

describe('limits hold under concurrent bursts', () => {
  it('login lock-out: a burst of 30 wrong passwords from 30 addresses gets at most 10 verdicts, then 429 even for the right password', async () => {
    const user = await createUser(t);
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(user.email, `wrong guess ${i}`)));
    const counts = tally(burst);
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_POLICY.maxFailuresPerEmail);
    for (const res of burst) if (res.status === 429) expect429(res, 'burst');
    expect429(await login(user.email, user.password), 'right password after the burst');
  });

  it('OTP cooldown: a burst of 20 requests for one address from 20 addresses mails exactly one code', async () => {
    const email = uniqueEmail('victim');
    const burst = await Promise.all(Array.from({ length: 20 }, () => requestCode(email)));
    const counts = tally(burst);
    expect(counts, JSON.stringify(counts)).toEqual({ 201: 1, 429: 19 });
    for (const res of burst) if (res.status === 429) expect429(res, 'burst');
    expect(t.mail.to(email)).toHaveLength(1);
  });

  it('OTP tries: a burst of 20 wrong codes kills the code; the right one is refused afterwards', async () => {
    const email = uniqueEmail();
    expect((await requestCode(email)).status).toBe(201);
    const code = codeFrom(t.mail.last(email));
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => register(email, wrong(code, i + 1))));
    expect(tally(burst)).toEqual({ 400: 20 });
    const res = await register(email, code);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('INVALID_CODE');
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('OTP single use: 5 simultaneous registrations with the right code create exactly one account', async () => {
    const email = uniqueEmail();
    expect((await requestCode(email)).status).toBe(201);
    const code = codeFrom(t.mail.last(email));
    const burst = await Promise.all(Array.from({ length: 5 }, () => register(email, code)));
    expect(tally(burst)).toEqual({ 201: 1, 400: 4 });
    const rows = await t.app.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('limits combined', () => {
  it('resending does not buy guesses: 5 codes an hour × 5 wrong tries, then the sixth request is refused', async () => {
    const email = uniqueEmail();
    let guesses = 0;
    for (let round = 0; round < OTP_POLICY.maxPerEmailPerHour; round++) {
      expect((await requestCode(email)).status).toBe(201);
      const code = codeFrom(t.mail.last(email));
      for (let i = 1; i <= OTP_POLICY.maxWrongTries; i++) {
        expect((await register(email, wrong(code, i))).status).toBe(400);
        guesses += 1;
      }
      // Dead now, even for the right code.
      expect((await register(email, code)).status).toBe(400);
      t.clock.advance(OTP_POLICY.resendCooldownMs);
    }
    expect(guesses).toBe(25);
    expect429(await requestCode(email), 'sixth code within the hour');
  });
});

describe('wrong one-time codes: at most 20 per address and purpose in 24 hours, across codes', () => {
  type Purpose = 'register' | 'reset';
  const ask = (purpose: Purpose, email: string) =>
    t.request('POST', purpose === 'register' ? '/api/otps' : '/api/password-resets', { body: { email }, ip: nextIp() });
  const answer = (purpose: Purpose, email: string, otp: string) =>
    purpose === 'register' ? register(email, otp) : t.request('POST', '/api/password-resets/confirm', { body: { email, otp, password: 'a new long password' } });
  /** A fresh code for the address (the last mail's, whether or not that mail carries one). */
  async function freshCode(purpose: Purpose, email: string): Promise<string> {
    t.clock.advance(OTP_POLICY.resendCooldownMs);
    expect((await ask(purpose, email)).status).toBe(201);
    return /^\d{6}$/m.exec(t.mail.last(email).text)?.[0] ?? '123456';
  }
  /** 4 codes × 5 wrong tries, each answered with the usual invalid-code 400. */
  async function spendTheDay(purpose: Purpose, email: string): Promise<void> {
    for (let round = 0; round < CODES_A_DAY_OF_TRIES; round++) {
      const code = await freshCode(purpose, email);
      for (let i = 1; i <= OTP_POLICY.maxWrongTries; i++) {
        const res = await answer(purpose, email, wrong(code, i));
        expect(res.json, `round ${round}, try ${i}`).toMatchObject({ code: 'INVALID_CODE', message: SERVER_MESSAGES.invalidCode });
      }
    }
  }
  const CODES_A_DAY_OF_TRIES = OTP_POLICY.maxWrongTriesPerDay / OTP_POLICY.maxWrongTries;
  const usedUp = { status: 'fail', code: 'INVALID_CODE', message: SERVER_MESSAGES.codeTriesUsedUp };

  it('sign-up: the 21st try is refused even with a fresh right code, until the first wrong one is 24 hours old', async () => {
    const email = uniqueEmail();
    const firstWrongTry = t.clock.now().getTime() + OTP_POLICY.resendCooldownMs;
    await spendTheDay('register', email);
    t.clock.advance(HOUR);
    const refused = await register(email, await freshCode('register', email));
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual(usedUp);

    // One second before the oldest wrong try leaves the day: still refused, with a fresh code.
    t.clock.advance(firstWrongTry + DAY - SECOND - t.clock.now().getTime() - OTP_POLICY.resendCooldownMs);
    const code = await freshCode('register', email);
    expect((await register(email, code)).json).toEqual(usedUp);
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    // On time, the same code works: a refused check did not spend one of its tries.
    t.clock.advance(SECOND);
    expect((await register(email, code)).status).toBe(201);
  });

  it('password reset: a fresh right code is refused after 20 wrong ones, and the password stays', async () => {
    const user = await createUser(t);
    await spendTheDay('reset', user.email);
    const refused = await answer('reset', user.email, await freshCode('reset', user.email));
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual(usedUp);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('each purpose and address has its own count', async () => {
    const email = uniqueEmail();
    await spendTheDay('reset', email);
    await spendTheDay('register', uniqueEmail('neighbour'));
    expect((await register(email, await freshCode('register', email))).status).toBe(201);
  });
});

describe('password checks of a signed-in user count against the sign-in lock-out of the account', () => {
  const changePassword = (cookie: string, currentPassword: string) =>
    t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword, newPassword: 'a changed password' } });
  const deleteAccount = (cookie: string, password: string) => t.request('DELETE', '/api/users/me', { cookie, body: { password } });

  it.each([
    ['change password', changePassword, 200],
    ['delete account', deleteAccount, 204],
  ] as const)('%s: 10 wrong passwords, then 429 even for the right one, for sign-in too, until the window passes', async (_name, check, done) => {
    const { user, cookie } = await createSignedInUser(t);
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail; i++) {
      expect((await check(cookie, `wrong password ${i}`)).status).toBe(400);
      t.clock.advance(SECOND);
    }
    const seconds = expect429(await check(cookie, user.password), 'right password after 10 wrong ones');
    expect429(await login(user.email, user.password), 'sign-in of the same account');
    t.clock.advance(seconds * SECOND);
    expect((await check(cookie, user.password)).status).toBe(done);
  });

  it('sign-in failures and failed password changes add up; a burst of 30 gets at most 10 verdicts', async () => {
    const { user, cookie } = await createSignedInUser(t);
    for (let i = 0; i < 5; i++) expect((await login(user.email, `wrong ${i}`)).status).toBe(401);
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => changePassword(cookie, `wrong guess ${i}`)));
    expect(tally(burst)).toEqual({ 400: 5, 429: 25 });
    expect429(await changePassword(cookie, user.password), 'right password');
  });
});

describe('Retry-After is exact: one second early is still refused, on time is allowed', () => {
  /** After a 429 with Retry-After s: at s - 1 seconds still 429, at s allowed. */
  async function checkExact(first: Response, again: () => Promise<Response>, allowed: number) {
    const seconds = expect429(first, 'first refusal');
    t.clock.advance((seconds - 1) * SECOND);
    const early = await again();
    expect429(early, 'one second early');
    t.clock.advance(SECOND);
    const onTime = await again();
    expect(onTime.status, onTime.body).toBe(allowed);
  }

  it('OTP resend cooldown', async () => {
    const email = uniqueEmail();
    expect((await requestCode(email)).status).toBe(201);
    t.clock.advance(17 * SECOND + 300);
    await checkExact(await requestCode(email), () => requestCode(email), 201);
  });

  it('OTP hourly cap per address', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < OTP_POLICY.maxPerEmailPerHour; i++) {
      expect((await requestCode(email)).status).toBe(201);
      t.clock.advance(OTP_POLICY.resendCooldownMs + 1234);
    }
    await checkExact(await requestCode(email), () => requestCode(email), 201);
  });

  it('OTP hourly cap per IP, which a forged X-Forwarded-For does not reset (TRUST_PROXY off)', async () => {
    const ip = nextIp();
    for (let i = 0; i < OTP_POLICY.maxPerIpPerHour; i++) {
      expect((await requestCode(uniqueEmail(), ip, { 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(201);
      t.clock.advance(700);
    }
    const forged = () => requestCode(uniqueEmail(), ip, { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}` });
    await checkExact(await forged(), forged, 201);
  });

  it('login lock-out per e-mail', async () => {
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail; i++) {
      expect((await login(user.email, `wrong ${i}`)).status).toBe(401);
      t.clock.advance(7 * SECOND + 250);
    }
    await checkExact(await login(user.email, user.password), () => login(user.email, user.password), 200);
  });

  it('login attempts per IP, which a forged X-Forwarded-For does not reset (TRUST_PROXY off)', async () => {
    const ip = nextIp();
    const forged = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i % 250}` });
    // Lock one address first: attempts on a locked address count for the IP but cost no argon2.
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < LOGIN_POLICY.maxAttemptsPerIp; i++) {
      const res = await login(ghost, 'password', ip, forged(i));
      expect(res.status).toBe(i < LOGIN_POLICY.maxFailuresPerEmail ? 401 : 429);
      t.clock.advance(250);
    }
    const user = await createUser(t);
    const again = () => login(user.email, user.password, ip, forged(7));
    await checkExact(await again(), again, 200);
  });
});
