import { describe, expect, it, vi } from 'vitest';
import { OTP_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createUser, nextIp, uniqueEmail } from './factories.ts';
import { anyString, HOUR, MINUTE, SECOND, useTestApp } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';

const t = useTestApp();

const requestCode = (email: string, ip = nextIp()) => t.request('POST', '/api/otps', { body: { email }, ip });
const register = (email: string, otp: string) =>
  t.request('POST', '/api/users/register', {
    body: { email, otp, fullName: 'Otto Pending', password: 'a long enough password' },
  });

describe('POST /api/otps', () => {
  it('answers 201 and mails a 6-digit code on its own line to the normalized address', async () => {
    const email = uniqueEmail('Mixed.Case');
    const res = await requestCode(`  ${email.toUpperCase()} `);
    expect(res.status, res.body).toBe(201);
    expect(res.json).toEqual({ status: 'success', message: SERVER_MESSAGES.otpSent });
    const mail = t.mail.last(email.toLowerCase());
    expect(mail.to).toEqual([email.toLowerCase()]);
    expect(mail.subject).toMatch(/code/i);
    expect(mail.text).toMatch(/^\d{6}$/m);
  });

  it('stores the code only as a hash', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const code = codeFrom(t.mail.last(email));
    const rows = await t.app.db.selectFrom('otpCodes').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it.each([
    ['not an address', { email: 'plainly wrong' }],
    ['no address', {}],
    ['a number', { email: 42 }],
    ['an address with a line break', { email: 'a@example.com\r\nBcc: x@evil.test' }],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_name, body) => {
    const res = await t.request('POST', '/api/otps', { body, ip: nextIp() });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
    expect(res.json.errors).toEqual([{ field: 'email', message: anyString }]);
  });

  it('answers 429 with Retry-After within 60 s of the previous request, and 201 after', async () => {
    const email = uniqueEmail();
    expect((await requestCode(email)).status).toBe(201);
    t.clock.advance(20 * SECOND);
    const tooSoon = await requestCode(email);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.json).toEqual({ status: 'fail', code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyRequests });
    expect(tooSoon.headers['retry-after']).toBe('40');
    t.clock.advance(40 * SECOND);
    expect((await requestCode(email)).status).toBe(201);
  });

  it('replaces the previous code with the new one', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const first = codeFrom(t.mail.last(email));
    t.clock.advance(OTP_POLICY.resendCooldownMs);
    await requestCode(email);
    const second = codeFrom(t.mail.last(email));
    if (first !== second) {
      const old = await register(email, first);
      expect(old.status).toBe(400);
      expect(old.json.code).toBe('INVALID_CODE');
    }
    expect((await register(email, second)).status).toBe(201);
  });

  it('mails exactly one code to a concurrent burst for one address', async () => {
    const email = uniqueEmail();
    const burst = await Promise.all(Array.from({ length: 10 }, () => requestCode(email)));
    expect(burst.map((res) => res.status).sort()).toEqual([201, ...Array<number>(9).fill(429)]);
    expect(t.mail.to(email)).toHaveLength(1);
  });

  it('allows 5 requests per address per hour, then 429 until the oldest leaves the hour', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < OTP_POLICY.maxPerEmailPerHour; i++) {
      expect((await requestCode(email)).status).toBe(201);
      t.clock.advance(OTP_POLICY.resendCooldownMs);
    }
    // 5 minutes have passed since the first request; it leaves the window 55 minutes from now.
    const capped = await requestCode(email);
    expect(capped.status).toBe(429);
    expect(capped.json.code).toBe('RATE_LIMITED');
    expect(Number(capped.headers['retry-after'])).toBe(55 * 60);
    t.clock.advance(55 * MINUTE);
    expect((await requestCode(email)).status).toBe(201);
  });

  it('allows 30 requests per IP per hour, then 429', async () => {
    const ip = nextIp();
    for (let i = 0; i < OTP_POLICY.maxPerIpPerHour; i++) {
      expect((await requestCode(uniqueEmail(), ip)).status).toBe(201);
    }
    const capped = await requestCode(uniqueEmail(), ip);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect((await requestCode(uniqueEmail(), nextIp())).status).toBe(201);
    t.clock.advance(HOUR);
    expect((await requestCode(uniqueEmail(), ip)).status).toBe(201);
  });

  it('answers the same 201 for an existing account, but the mail says so and carries no code', async () => {
    const user = await createUser(t);
    const res = await requestCode(user.email);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ status: 'success', message: SERVER_MESSAGES.otpSent });
    const mail = t.mail.last(user.email);
    expect(mail.text).toMatch(/already has a Taskwise account/);
    expect(mail.text).not.toMatch(/^\d{6}$/m);
    // And the address is throttled exactly like a new one.
    expect((await requestCode(user.email)).status).toBe(429);
    expect((await register(user.email, '123456')).json.code).toBe('INVALID_CODE');
  });

  it('answers 503 when the mail cannot be sent, and does not start the cooldown', async () => {
    await t.rebuild({ SMTP_URL: 'smtp://127.0.0.1:1' });
    const email = uniqueEmail();
    const res = await requestCode(email);
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'error', code: 'SERVICE_UNAVAILABLE', message: SERVER_MESSAGES.serviceUnavailable });
    await t.rebuild();
    expect((await requestCode(email)).status).toBe(201);
  });

  it('prints the mail as a block, code on its own line, when SMTP_URL is unset (pretty log; JSON: logging.test.ts)', async () => {
    await t.rebuild({ SMTP_URL: '', LOG_FORMAT: 'pretty' });
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      const email = uniqueEmail();
      expect((await requestCode(email)).status).toBe(201);
      const block = printed.join('');
      expect(block).toContain(`To: ${email}`);
      expect(block).toMatch(/^\d{6}$/m);
    } finally {
      write.mockRestore();
    }
  });
});
