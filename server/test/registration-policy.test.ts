import { describe, expect, it } from 'vitest';
import { createUser, insertBoard, nextIp, uniqueEmail } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';

/*
 * Who may register (REGISTRATION, REGISTRATION_DOMAINS): refused at the first step (POST
 * /api/otps) with 403 REGISTRATION_CLOSED saying why, the same answer whether or not the
 * address has an account, and no mail; refused again at the last step for a code mailed before
 * the policy changed; told to the sign-up page by GET /api/registration.
 */

const t = useTestApp();

const askCode = (email: string) => t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
const register = (email: string, otp: string) =>
  t.request('POST', '/api/users/register', { body: { email, otp, fullName: 'Grace Hopper', password: 'a long enough password' } });
interface RegistrationAnswer {
  status: string;
  data: { registration: { mode: string; domains: string[]; message: string | null } };
}
const policy = async () => (await t.request('GET', '/api/registration')).json as unknown as RegistrationAnswer;

/** Refused as the policy says, and nothing mailed to the address. */
async function expectRefused(email: string, message: string) {
  const res = await askCode(email);
  expect(res.status, res.body).toBe(403);
  expect(res.json).toEqual({ status: 'fail', code: 'REGISTRATION_CLOSED', message });
  expect(t.mail.to(email)).toHaveLength(0);
  expect(await t.app.db.selectFrom('otpCodes').select('id').where('email', '=', email).execute()).toEqual([]);
}

describe('registration open (the default)', () => {
  it('mails a code to anyone; GET /api/registration says so', async () => {
    expect(await policy()).toEqual({ status: 'success', data: { registration: { mode: 'open', domains: [], message: null } } });
    const email = uniqueEmail();
    expect((await askCode(email)).status).toBe(201);
    expect(t.mail.to(email)).toHaveLength(1);
  });
});

describe('REGISTRATION=closed', () => {
  it('refuses every address at the first step, with or without an account, and mails nothing', async () => {
    await t.rebuild({ REGISTRATION: 'closed' });
    const message = 'Sign-up on this server is closed.';
    expect(await policy()).toEqual({ status: 'success', data: { registration: { mode: 'closed', domains: [], message } } });
    await expectRefused(uniqueEmail(), message);
    const existing = await createUser(t);
    await expectRefused(existing.email, message);
  });

  it('a code mailed while sign-up was open makes no account once it is closed', async () => {
    const email = uniqueEmail();
    expect((await askCode(email)).status).toBe(201);
    const code = codeFrom(t.mail.last(email));
    await t.rebuild({ REGISTRATION: 'closed' });
    const res = await register(email, code);
    expect(res.status, res.body).toBe(403);
    expect(res.json.code).toBe('REGISTRATION_CLOSED');
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
  });
});

describe('REGISTRATION=invite', () => {
  it('only an address invited to a board gets a code, and registers with it into that board', async () => {
    await t.rebuild({ REGISTRATION: 'invite' });
    const message = 'Sign-up on this server is by invitation.';
    expect((await policy()).data.registration).toEqual({ mode: 'invite', domains: [], message });
    await expectRefused(uniqueEmail(), message);
    // An account holder is answered as anyone else without an invitation.
    await expectRefused((await createUser(t)).email, message);

    const admin = await createUser(t);
    const invited = uniqueEmail();
    const board = await insertBoard(t, admin, [{ who: invited, role: 'member' }]);
    const res = await askCode(invited.toUpperCase());
    expect(res.status, res.body).toBe(201);
    const created = await register(invited, codeFrom(t.mail.last(invited)));
    expect(created.status, created.body).toBe(201);
    const member = await t.app.db.selectFrom('boardMembers').select('userId').where('boardId', '=', board.id).where('email', '=', invited).executeTakeFirstOrThrow();
    expect(member.userId).not.toBeNull();
  });
});

describe('REGISTRATION_DOMAINS', () => {
  it('open to addresses at the listed domains only (case ignored)', async () => {
    await t.rebuild({ REGISTRATION_DOMAINS: 'Example.org, @staff.example.net' });
    const message = 'Sign-up on this server is open to addresses at example.org and staff.example.net only.';
    expect((await policy()).data.registration).toEqual({ mode: 'open', domains: ['example.org', 'staff.example.net'], message });
    await expectRefused(`someone-${String(Date.now())}@example.com`, message);
    // A subdomain is another domain.
    await expectRefused(`someone-${String(Date.now())}@mail.example.org`, message);
    const ok = `someone-${String(Date.now())}@STAFF.example.net`;
    expect((await askCode(ok)).status).toBe(201);
    expect(t.mail.to(ok.toLowerCase())).toHaveLength(1);
  });

  it('with invite: an invitation to an address outside the domains does not let it register', async () => {
    await t.rebuild({ REGISTRATION: 'invite', REGISTRATION_DOMAINS: 'example.org' });
    const message = 'Sign-up on this server is by invitation, for addresses at example.org only.';
    const admin = await createUser(t);
    const outside = `guest-${String(Date.now())}@example.com`;
    const inside = `colleague-${String(Date.now())}@example.org`;
    await insertBoard(t, admin, [{ who: outside, role: 'member' }, { who: inside, role: 'viewer' }]);
    await expectRefused(outside, message);
    expect((await askCode(inside)).status).toBe(201);
  });

  it('a value that is not a domain list stops the start with a message naming the variable', async () => {
    await expect(t.rebuild({ REGISTRATION_DOMAINS: 'example.org, not a domain' })).rejects.toThrow(/REGISTRATION_DOMAINS/);
    await expect(t.rebuild({ REGISTRATION: 'sometimes' })).rejects.toThrow(/REGISTRATION must be one of open, invite, closed/);
  });
});
