import { describe, expect, it } from 'vitest';
import { OTP_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { nextIp, uniqueEmail } from './factories.ts';
import { MINUTE, SECOND, useTestApp } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';

const t = useTestApp();

async function codeFor(email: string): Promise<string> {
  const res = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
  expect(res.status).toBe(201);
  return codeFrom(t.mail.last(email));
}

const register = (body: Record<string, unknown>) => t.request('POST', '/api/users/register', { body });
const details = (email: string, otp: string, extra: Record<string, unknown> = {}) => ({
  email,
  otp,
  fullName: 'Grace Hopper',
  password: 'a long enough password',
  ...extra,
});
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const expectInvalidCode = (res: Awaited<ReturnType<typeof register>>) => {
  expect(res.status).toBe(400);
  expect(res.json).toEqual({ status: 'fail', code: 'INVALID_CODE', message: SERVER_MESSAGES.invalidCode });
};

describe('POST /api/users/register', () => {
  it('creates the account with the mailed code: 201, then the user can sign in', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    const res = await register(details(` ${email.toUpperCase()} `, code, { fullName: '  Grace Hopper  ' }));
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ status: 'success', message: SERVER_MESSAGES.registered });

    const login = await t.request('POST', '/api/users/login', { body: { email, password: 'a long enough password' } });
    expect(login.status).toBe(200);
    expect(login.json.data.user).toEqual({ fullName: 'Grace Hopper', email });
    const row = await t.app.db.selectFrom('users').select('passwordHash').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('accepts a code only once', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    expect((await register(details(email, code))).status).toBe(201);
    expectInvalidCode(await register(details(email, code)));
  });

  it('answers INVALID_CODE for a wrong code, with one generic message', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    expectInvalidCode(await register(details(email, wrong(code))));
    // The right code still works after a wrong try.
    expect((await register(details(email, code))).status).toBe(201);
  });

  it('kills the code after 5 wrong tries, even for the right code afterwards', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    for (let i = 0; i < OTP_POLICY.maxWrongTries; i++) expectInvalidCode(await register(details(email, wrong(code))));
    expectInvalidCode(await register(details(email, code)));
  });

  it('compares at most 5 guesses of a concurrent burst', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    const guesses = Array.from({ length: 15 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    await Promise.all(guesses.map((guess) => register(details(email, guess))));
    const row = await t.app.db.selectFrom('otpCodes').select('attempts').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(OTP_POLICY.maxWrongTries);
    expectInvalidCode(await register(details(email, code)));
  });

  it('accepts the right code after 4 wrong tries', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    for (let i = 0; i < OTP_POLICY.maxWrongTries - 1; i++) await register(details(email, wrong(code)));
    expect((await register(details(email, code))).status).toBe(201);
  });

  it('expires the code after 10 minutes', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    t.clock.advance(10 * MINUTE);
    expectInvalidCode(await register(details(email, code)));
  });

  it('still accepts the code just before 10 minutes', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    t.clock.advance(10 * MINUTE - SECOND);
    expect((await register(details(email, code))).status).toBe(201);
  });

  it('answers INVALID_CODE when no code was requested, or it was for another address', async () => {
    const other = uniqueEmail();
    const code = await codeFor(other);
    expectInvalidCode(await register(details(uniqueEmail(), code)));
    expectInvalidCode(await register(details(uniqueEmail(), '000000')));
  });

  it.each([
    ['a password shorter than 8 characters', { password: 'short12' }, 'password', 'Password must be at least 8 characters.'],
    ['a password longer than 128 characters', { password: 'x'.repeat(129) }, 'password', 'Password must be at most 128 characters.'],
    ['a blank full name', { fullName: '   ' }, 'fullName', 'Full name is required.'],
    ['a full name over 100 characters', { fullName: 'x'.repeat(101) }, 'fullName', 'Full name must be at most 100 characters.'],
    ['a code that is not 6 digits', { otp: '12345' }, 'otp', 'The code is 6 digits.'],
  ])('refuses %s with 400 VALIDATION_FAILED, without using up the code', async (_name, extra, field, message) => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    const res = await register(details(email, code, extra));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ status: 'fail', code: 'VALIDATION_FAILED', message, errors: [{ field, message }] });
    expect((await register(details(email, code))).status).toBe(201);
  });

  it('refuses the e-mail address itself as password', async () => {
    const email = uniqueEmail();
    const code = await codeFor(email);
    const res = await register(details(email, code, { password: email.toUpperCase() }));
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'password', message: 'Password must not be your e-mail address.' }]);
  });

  it('lists every missing field', async () => {
    const res = await register({});
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.message).toBe(SERVER_MESSAGES.validationFailed);
    expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'fullName', 'otp', 'password']);
  });

  it('refuses to register an address twice', async () => {
    const email = uniqueEmail();
    expect((await register(details(email, await codeFor(email)))).status).toBe(201);
    t.clock.advance(OTP_POLICY.resendCooldownMs);
    // The second request only mails "you already have an account": no code exists to use.
    const res = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
    expect(res.status).toBe(201);
    expectInvalidCode(await register(details(email, '123456')));
  });
});
