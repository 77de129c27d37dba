import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { signUnsubscribeToken } from '../mail/unsubscribe-tokens.ts';
import { codeFrom } from './mail-catcher.ts';
import { createSignedInUser, createTask, nextIp, registerThroughApi, signIn, uniqueEmail } from './factories.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

/** An account's language and formats when it was made without a browser's Accept-Language. */
const ENGLISH = { language: 'en', weekStart: 'sunday', hourCycle: 'h12' };

const settingsOf = async (cookie: string) => {
  const res = await t.request('GET', '/api/users/me/settings', { cookie });
  expect(res.status, res.body).toBe(200);
  return (res.json.data as unknown as { settings: { notifyAssigned: boolean; notifyReminders: boolean; notifyBoards: boolean } }).settings;
};

/** The token of the unsubscribe link in the newest mail to `address`. */
async function unsubscribeTokenFor(address: string): Promise<string> {
  await t.app.outbox.drain();
  const token = /\/unsubscribe\?token=([\w.-]+)/.exec(t.mail.last(address).text)?.[1];
  if (token === undefined) throw new Error('No unsubscribe link in the mail');
  return token;
}

/** The POST a mail client sends for RFC 8058 one-click unsubscribe: form-encoded, no cookie, no Origin. */
const oneClick = (token: string) =>
  t.request('POST', `/api/unsubscribe?token=${encodeURIComponent(token)}`, {
    body: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

describe('GET/PATCH /api/users/me/settings', () => {
  it('starts with both kinds on, and changes either one alone', async () => {
    const { cookie } = await createSignedInUser(t);
    expect(await settingsOf(cookie)).toEqual({ notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true, ...ENGLISH });
    const res = await t.request('PATCH', '/api/users/me/settings', { cookie, body: { notifyReminders: false } });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({
      status: 'success',
      message: ACCOUNT_MESSAGES.settingsSaved,
      data: { settings: { notifyAssigned: true, notifyReminders: false, notifyBoards: true, notifyMentions: true, ...ENGLISH } },
    });
    expect(await settingsOf(cookie)).toEqual({ notifyAssigned: true, notifyReminders: false, notifyBoards: true, notifyMentions: true, ...ENGLISH });
  });

  it('refuses an empty body, a wrong type, and callers without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await t.request('PATCH', '/api/users/me/settings', { cookie, body: {} })).status).toBe(400);
    expect((await t.request('PATCH', '/api/users/me/settings', { cookie, body: { notifyAssigned: 'no' } })).status).toBe(400);
    expect((await t.request('GET', '/api/users/me/settings')).status).toBe(401);
    expect(await settingsOf(cookie)).toEqual({ notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true, ...ENGLISH });
  });
});

describe('POST /api/unsubscribe (RFC 8058 one-click)', () => {
  it('turns assignment mail off for the address in the link, without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    const { user: bob, cookie: bobCookie } = await createSignedInUser(t);
    await createTask(t, cookie, { assignee: bob.email });
    const token = await unsubscribeTokenFor(bob.email);

    const res = await oneClick(token);
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({
      status: 'success',
      message: ACCOUNT_MESSAGES.unsubscribed.assigned,
      data: { email: bob.email, kind: 'assigned' },
    });
    expect(await settingsOf(bobCookie)).toEqual({ notifyAssigned: false, notifyReminders: true, notifyBoards: true, notifyMentions: true, ...ENGLISH });

    await createTask(t, cookie, { assignee: bob.email });
    await t.app.outbox.drain();
    expect(t.mail.to(bob.email)).toHaveLength(1);
  });

  it('works for an address without an account, and accepts the web page\'s JSON post too', async () => {
    const { cookie } = await createSignedInUser(t);
    const stranger = uniqueEmail('stranger');
    await createTask(t, cookie, { assignee: stranger });
    const token = await unsubscribeTokenFor(stranger);
    const res = await t.request('POST', `/api/unsubscribe?token=${token}`, { body: {} });
    expect(res.status, res.body).toBe(200);
    await createTask(t, cookie, { assignee: stranger });
    await t.app.outbox.drain();
    expect(t.mail.to(stranger)).toHaveLength(1);
  });

  it('refuses a token that was guessed, altered for another person, or altered for another kind', async () => {
    const victim = uniqueEmail('victim');
    const attacker = uniqueEmail('attacker');
    const secret = t.config.sessionSecret;
    const mine = signUnsubscribeToken(secret, attacker, 'assigned');
    const [, kind, signature] = mine.split('.');
    const forVictim = `${Buffer.from(victim).toString('base64url')}.${kind}.${signature}`;
    const otherKind = mine.replace('.assigned.', '.reminders.');
    const wrongKey = signUnsubscribeToken('another-secret-another-secret-another', victim, 'assigned');
    for (const token of [forVictim, otherKind, wrongKey, 'nonsense', '']) {
      const res = await oneClick(token);
      expect(res.status, token).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
    }
    expect(await t.app.mailSettingsRepository.get(victim)).toEqual({ notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true });
    expect(await t.app.mailSettingsRepository.get(attacker)).toEqual({ notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true });
  });

  it('stays the only route that takes a form body', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('PATCH', '/api/users/me/settings', {
      cookie,
      body: 'notifyAssigned=false',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });

  it('never suppresses codes: a person who turned everything off still gets sign-up codes', async () => {
    const address = uniqueEmail('quiet');
    await t.app.mailSettingsRepository.update(address, { notifyAssigned: false, notifyReminders: false }, t.clock.now().toISOString());
    const res = await t.request('POST', '/api/otps', { body: { email: address }, ip: nextIp() });
    expect(res.status).toBe(201);
    expect(codeFrom(t.mail.last(address))).toMatch(/^\d{6}$/);
  });

  it('outlive the account: after deletion the address gets no mail it turned off, and keeps the choice when it registers again', async () => {
    const { cookie } = await createSignedInUser(t);
    const { user: leaving, cookie: leavingCookie } = await createSignedInUser(t);
    await t.request('PATCH', '/api/users/me/settings', { cookie: leavingCookie, body: { notifyAssigned: false } });
    const deleted = await t.request('DELETE', '/api/users/me', { cookie: leavingCookie, body: { password: leaving.password } });
    expect(deleted.status, deleted.body).toBe(204);
    const assignmentMails = async () => {
      await createTask(t, cookie, { assignee: leaving.email });
      await t.app.outbox.drain();
      return t.mail.to(leaving.email).filter((mail) => mail.subject.includes('assigned you'));
    };

    // An address that never registers again.
    expect(await assignmentMails()).toEqual([]);

    // The same person signing up again.
    await registerThroughApi(t, { email: leaving.email });
    const again = await signIn(t, { email: leaving.email, password: 'a long enough password' });
    expect(await settingsOf(again)).toEqual({ notifyAssigned: false, notifyReminders: true, notifyBoards: true, notifyMentions: true, ...ENGLISH });
    expect(await assignmentMails()).toEqual([]);
  });
});
