import * as argon2 from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createUser, nextIp, uniqueEmail } from './factories.ts';
import { MINUTE, SECOND, useTestApp } from './helpers.ts';

// The real argon2, observed: how many verifications a sign-in costs is what keeps an unknown
// e-mail from answering faster than a wrong password. The API test files share one module graph
// per worker (vitest.config.ts), so the server's modules are loaded afresh for this file: those
// cached by an earlier file hold the unobserved argon2.
vi.hoisted(() => vi.resetModules());
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

const t = useTestApp();

const login = (email: string, password: string, ip = '192.0.2.1') =>
  t.request('POST', '/api/users/login', { body: { email, password }, ip });

const INCORRECT = { status: 'fail', code: 'INVALID_CREDENTIALS', message: SERVER_MESSAGES.incorrectCredentials };

describe('POST /api/users/login', () => {
  it('signs in: 200 with the user and an HttpOnly, SameSite=Lax session cookie', async () => {
    const user = await createUser(t);
    const res = await login(` ${user.email.toUpperCase()} `, user.password, nextIp());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      status: 'success',
      message: SERVER_MESSAGES.loginSuccess,
      data: { user: { fullName: user.fullName, email: user.email } },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^taskwise_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Max-Age=2592000');
    expect(cookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when APP_ORIGIN is https', async () => {
    await t.rebuild({ APP_ORIGIN: 'https://tasks.example.com' });
    const user = await createUser(t);
    const res = await login(user.email, user.password, nextIp());
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const user = await createUser(t);
    const wrongPassword = await login(user.email, 'not the password', nextIp());
    const unknown = await login(uniqueEmail('nobody'), user.password, nextIp());
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrongPassword.json).toEqual(INCORRECT);
    expect(unknown.json).toEqual(INCORRECT);
    expect(wrongPassword.sessionCookie).toBeUndefined();
  });

  it('runs one argon2 verification for an unknown e-mail, as for a wrong password', async () => {
    const user = await createUser(t);
    for (const email of [user.email, uniqueEmail('nobody')]) {
      vi.mocked(argon2.verify).mockClear();
      expect((await login(email, 'not the password', nextIp())).status).toBe(401);
      expect(vi.mocked(argon2.verify), email).toHaveBeenCalledTimes(1);
    }
  });

  it('refuses a missing or malformed field with 400', async () => {
    const res = await t.request('POST', '/api/users/login', { body: { email: 'not-an-email' }, ip: nextIp() });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);
  });

  it('locks an e-mail out after 10 failures in 15 minutes, until the window passes', async () => {
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail; i++) {
      expect((await login(user.email, `wrong ${i}`, nextIp())).status).toBe(401);
      t.clock.advance(30 * SECOND);
    }
    // The first failure was 5 minutes ago: 10 more minutes to go, even with the right password.
    const locked = await login(user.email, user.password, nextIp());
    expect(locked.status).toBe(429);
    expect(locked.json).toEqual({ status: 'fail', code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyRequests });
    expect(locked.headers['retry-after']).toBe(String(10 * 60));
    // Another address is not affected.
    const other = await createUser(t);
    expect((await login(other.email, other.password, nextIp())).status).toBe(200);

    t.clock.advance(10 * MINUTE);
    expect((await login(user.email, user.password, nextIp())).status).toBe(200);
  });

  it('holds the lock-out under a concurrent burst: at most 10 verdicts, then 429', async () => {
    const user = await createUser(t);
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.email, `guess ${i}`, nextIp())));
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_POLICY.maxFailuresPerEmail);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect((await login(user.email, user.password, nextIp())).status).toBe(429);
  });

  it('locks unknown e-mails the same way (no enumeration through the lock)', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail; i++) await login(email, 'guess', nextIp());
    expect((await login(email, 'guess', nextIp())).status).toBe(429);
  });

  it('forgets the failures after a successful sign-in', async () => {
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail - 1; i++) await login(user.email, 'wrong', nextIp());
    expect((await login(user.email, user.password, nextIp())).status).toBe(200);
    for (let i = 0; i < LOGIN_POLICY.maxFailuresPerEmail - 1; i++) {
      expect((await login(user.email, 'wrong', nextIp())).status).toBe(401);
    }
  });

  it('allows 100 attempts per IP per 15 minutes, then 429', async () => {
    const ip = nextIp();
    const user = await createUser(t);
    // In batches: each attempt costs one argon2id verification.
    for (let batch = 0; batch < LOGIN_POLICY.maxAttemptsPerIp / 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.request('POST', '/api/users/login', { body: { email: uniqueEmail(), password: 'guess' }, ip })),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(401));
    }
    const capped = await login(user.email, user.password, ip);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(user.email, user.password, nextIp())).status).toBe(200);
    t.clock.advance(LOGIN_POLICY.windowMs);
    expect((await login(user.email, user.password, ip)).status).toBe(200);
  });
});
