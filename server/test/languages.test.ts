import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { message, type Translatable } from '#shared/i18n.ts';
import { LANGUAGES } from '#shared/languages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { requestLanguage } from '../i18n/request-language.ts';
import { english, translate } from '../i18n/translate.ts';
import { codeFrom } from './mail-catcher.ts';
import { createSignedInUser, createTask, createUser, nextIp, signIn, uniqueEmail } from './factories.ts';
import { useTestApp, type Response } from './helpers.ts';

/**
 * Each reader's language: the account's language and formats (the settings API, and what a new
 * account gets from its browser's Accept-Language), and the language of the API's messages. The
 * catalogs may still be empty, so translation is proved with the pseudo-language `en-XA`
 * (accented, longer English, made on the fly), which no account can have: a text that went
 * through translation comes out pseudo-localized when the header asks for it first.
 */

const t = useTestApp();

const pseudo = (text: Translatable) => translate('en-XA', text);
const PSEUDO = { 'accept-language': 'en-XA' };

type Settings = Record<string, unknown>;
const settingsOf = async (cookie: string): Promise<Settings> => {
  const res = await t.request('GET', '/api/users/me/settings', { cookie });
  expect(res.status, res.body).toBe(200);
  return (res.json.data as unknown as { settings: Settings }).settings;
};
const patchSettings = (cookie: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request('PATCH', '/api/users/me/settings', { cookie, body, headers });

const accountRow = (email: string) =>
  t.app.db.selectFrom('users').select(['language', 'weekStart', 'hourCycle']).where('email', '=', email).executeTakeFirstOrThrow();

/** Sets an account's language straight in its row (what the settings API does). */
const setLanguage = (email: string, language: string) => t.app.db.updateTable('users').set({ language }).where('email', '=', email).execute();

const MAIL_DEFAULTS = { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true };

describe('GET/PATCH /api/users/me/settings: language, week start and clock', () => {
  it('gives the language and formats with the mail settings (English, Sunday, 12-hour for an account made without a browser)', async () => {
    const { cookie } = await createSignedInUser(t);
    expect(await settingsOf(cookie)).toEqual({ ...MAIL_DEFAULTS, language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
  });

  it('takes a language ignoring case and answers it as listed; the formats stay as they were', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await patchSettings(cookie, { language: 'PT-br' });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({
      status: 'success',
      // Said in the language just chosen.
      message: translate('pt-BR', ACCOUNT_MESSAGES.languageSaved),
      data: { settings: { ...MAIL_DEFAULTS, language: 'pt-BR', weekStart: 'sunday', hourCycle: 'h12' } },
    });
    expect(await accountRow(user.email)).toEqual({ language: 'pt-BR', weekStart: 'sunday', hourCycle: 'h12' });
    for (const [sent, listed] of [
      ['zh-cn', 'zh-CN'],
      ['DE', 'de'],
      [' ja ', 'ja'],
    ] as const) {
      const again = await patchSettings(cookie, { language: sent });
      expect(again.status, again.body).toBe(200);
      expect((again.json.data as unknown as { settings: Settings }).settings.language).toBe(listed);
    }
    expect((await settingsOf(cookie)).language).toBe('ja');
  });

  it('sets the week start and the clock, alone or with the language and a mail setting; the other settings keep working', async () => {
    const { cookie } = await createSignedInUser(t);
    const weekOnly = await patchSettings(cookie, { weekStart: 'monday' });
    expect(weekOnly.status, weekOnly.body).toBe(200);
    expect((weekOnly.json.data as unknown as { settings: Settings }).settings).toEqual({ ...MAIL_DEFAULTS, language: 'en', weekStart: 'monday', hourCycle: 'h12' });

    const all = await patchSettings(cookie, { language: 'ar', weekStart: 'saturday', hourCycle: 'h23', notifyBoards: false });
    expect(all.status, all.body).toBe(200);
    expect(all.json.message).toBe(translate('ar', ACCOUNT_MESSAGES.settingsSaved));
    expect(all.json.message).not.toBe(english(ACCOUNT_MESSAGES.settingsSaved));
    const expected = { ...MAIL_DEFAULTS, notifyBoards: false, language: 'ar', weekStart: 'saturday', hourCycle: 'h23' };
    expect((all.json.data as unknown as { settings: Settings }).settings).toEqual(expected);
    expect(await settingsOf(cookie)).toEqual(expected);

    const mailOnly = await patchSettings(cookie, { notifyBoards: true });
    expect(mailOnly.status, mailOnly.body).toBe(200);
    expect(mailOnly.json.message).toBe(translate('ar', ACCOUNT_MESSAGES.settingsSaved));
    expect(await settingsOf(cookie)).toEqual({ ...expected, notifyBoards: true });
  });

  it('refuses a language, week start or clock that is not listed: 400 VALIDATION_FAILED naming the field, nothing changed', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ language: 'xx' }, 'language', `language must be one of: ${LANGUAGES.join(', ')}.`],
      [{ language: 'pt_BR' }, 'language', `language must be one of: ${LANGUAGES.join(', ')}.`],
      [{ language: 'en-XA' }, 'language', `language must be one of: ${LANGUAGES.join(', ')}.`],
      [{ language: 7 }, 'language', 'language must be text.'],
      [{ weekStart: 'friday' }, 'weekStart', 'weekStart must be one of: monday, sunday, saturday.'],
      [{ weekStart: 'Monday' }, 'weekStart', 'weekStart must be one of: monday, sunday, saturday.'],
      [{ hourCycle: 'h24' }, 'hourCycle', 'hourCycle must be one of: h12, h23.'],
      [{ hourCycle: 'h23', language: 'xx', notifyBoards: false }, 'language', `language must be one of: ${LANGUAGES.join(', ')}.`],
    ];
    for (const [body, field, text] of refusals) {
      const res = await patchSettings(cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual({ status: 'fail', code: 'VALIDATION_FAILED', message: text, errors: [{ field, message: text }] });
    }
    expect(await accountRow(user.email)).toEqual({ language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
    expect(await settingsOf(cookie)).toEqual({ ...MAIL_DEFAULTS, language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
  });

  it('reads a stored language that is no longer listed as English', async () => {
    const { user, cookie } = await createSignedInUser(t);
    await setLanguage(user.email, 'tlh');
    expect((await settingsOf(cookie)).language).toBe('en');
  });
});

describe("a new account gets its browser's language and that language's week and clock", () => {
  /** Signs up through the API (code request and registration) with `headers` on both calls. */
  async function registerWith(headers: Record<string, string>): Promise<{ email: string; res: Response }> {
    const email = uniqueEmail('lang');
    const otp = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp(), headers });
    expect(otp.status, otp.body).toBe(201);
    const body = { email, fullName: 'Lena Lang', password: 'a long enough password', otp: codeFrom(t.mail.last(email)) };
    const res = await t.request('POST', '/api/users/register', { body, headers });
    expect(res.status, res.body).toBe(201);
    return { email, res };
  }

  it.each([
    ['de-AT,de;q=0.9', { language: 'de', weekStart: 'monday', hourCycle: 'h23' }],
    ['ja', { language: 'ja', weekStart: 'sunday', hourCycle: 'h23' }],
    ['xx', { language: 'en', weekStart: 'sunday', hourCycle: 'h12' }],
    ['ar', { language: 'ar', weekStart: 'saturday', hourCycle: 'h12' }],
    ['xx-YY, pt-PT;q=0.8, en;q=0.5', { language: 'pt-BR', weekStart: 'sunday', hourCycle: 'h23' }],
    ['fr;q=0.3, zh-TW;q=0.9', { language: 'zh-CN', weekStart: 'monday', hourCycle: 'h23' }],
  ])('Accept-Language: %s', async (header, expected) => {
    const { email } = await registerWith({ 'accept-language': header });
    expect(await accountRow(email)).toEqual(expected);
    const cookie = await signIn(t, { email, password: 'a long enough password' });
    expect(await settingsOf(cookie)).toEqual({ ...MAIL_DEFAULTS, ...expected });
  });

  it('is English without the header, and English for the pseudo-language (never an account language), whose answers are pseudo', async () => {
    const { email } = await registerWith({});
    expect(await accountRow(email)).toEqual({ language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
    const pseudoSignUp = await registerWith(PSEUDO);
    expect(await accountRow(pseudoSignUp.email)).toEqual({ language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
    expect(pseudoSignUp.res.json.message).toBe(pseudo(SERVER_MESSAGES.registered));
  });
});

describe("signed out, the answer speaks the header's language, never an account's", () => {
  it('answers the code request for an address with an account exactly as for one without', async () => {
    for (const headers of [PSEUDO, { 'accept-language': 'de-CH, en-XA;q=0.5' }, { 'accept-language': 'fr' }, {}]) {
      const holder = await createUser(t);
      await setLanguage(holder.email, 'ja');
      const known = await t.request('POST', '/api/otps', { body: { email: holder.email }, ip: nextIp(), headers });
      const unknown = await t.request('POST', '/api/otps', { body: { email: uniqueEmail() }, ip: nextIp(), headers });
      expect(known.status, known.body).toBe(201);
      expect(known.body).toBe(unknown.body);
    }
    const holder = await createUser(t);
    await setLanguage(holder.email, 'ja');
    const pseudoAnswer = await t.request('POST', '/api/otps', { body: { email: holder.email }, ip: nextIp(), headers: PSEUDO });
    expect(pseudoAnswer.json.message).toBe(pseudo(SERVER_MESSAGES.otpSent));
    expect(pseudoAnswer.json.message).not.toBe(SERVER_MESSAGES.otpSent);
  });

  it("answers a wrong password and a missing session in the header's language", async () => {
    const holder = await createUser(t);
    await setLanguage(holder.email, 'de');
    const wrong = await t.request('POST', '/api/users/login', { body: { email: holder.email, password: 'not the password at all' }, ip: nextIp(), headers: PSEUDO });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ status: 'fail', code: 'INVALID_CREDENTIALS', message: pseudo(SERVER_MESSAGES.incorrectCredentials) });
    const signedOut = await t.request('GET', '/api/tasks', { headers: PSEUDO });
    expect(signedOut.json).toEqual({ status: 'fail', code: 'NOT_AUTHENTICATED', message: pseudo(SERVER_MESSAGES.notAuthenticated) });
    // The sign-in's own answer too: the pseudo-language asked for first wins over the account's.
    const right = await t.request('POST', '/api/users/login', { body: { email: holder.email, password: holder.password }, ip: nextIp(), headers: PSEUDO });
    expect(right.json.message).toBe(pseudo(SERVER_MESSAGES.loginSuccess));
  });
});

describe("signed in, the answer speaks the account's language", () => {
  it("answers a sign-in that succeeded in the account's language, whatever the header asks", async () => {
    const holder = await createUser(t);
    await setLanguage(holder.email, 'de');
    const right = await t.request('POST', '/api/users/login', { body: { email: holder.email, password: holder.password }, ip: nextIp(), headers: { 'accept-language': 'fr' } });
    expect(right.status, right.body).toBe(200);
    expect(right.json.message).toBe(translate('de', SERVER_MESSAGES.loginSuccess));
    expect(right.json.message).not.toBe(SERVER_MESSAGES.loginSuccess);
  });

  it('follows the account, not the header; only the pseudo-language asked for first wins over it', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const patched = await patchSettings(cookie, { language: 'fr' });
    expect(patched.status, patched.body).toBe(200);
    const missing = '0190a8a0-0000-7000-8000-000000000000';
    const notFound = (headers: Record<string, string>) => t.request('GET', `/api/tasks/${missing}`, { cookie, headers });

    // A header that asks for the pseudo-language only later is not followed: the account's language is.
    for (const header of ['de', 'de, en-XA;q=0.9', 'ja;q=0.9, en-XA;q=0.8']) {
      const res = await notFound({ 'accept-language': header });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(translate('fr', SERVER_MESSAGES.taskNotFound));
      expect(res.json.message).not.toBe(pseudo(SERVER_MESSAGES.taskNotFound));
    }
    const first = await notFound({ 'accept-language': 'en-XA, de;q=0.9' });
    expect(first.json.message).toBe(pseudo(SERVER_MESSAGES.taskNotFound));

    // With an API token as with the session.
    const token = await t.request('POST', '/api/tokens', { cookie, body: { name: 'Language check', access: 'read' } });
    expect(token.status, token.body).toBe(201);
    const secret = (token.json.data as unknown as { secret: string }).secret;
    const byToken = (header: string) => t.request('GET', `/api/tasks/${missing}`, { headers: { authorization: `Bearer ${secret}`, 'accept-language': header } });
    expect((await byToken('de')).json.message).toBe(translate('fr', SERVER_MESSAGES.taskNotFound));
    expect((await byToken('en-XA')).json.message).toBe(pseudo(SERVER_MESSAGES.taskNotFound));
    expect(user.email).toBeDefined();
  });

  it('reads the language of a request: the pseudo-language asked first, else the account, else the header', () => {
    const request = (acceptLanguage: string | undefined, language: string | null) =>
      ({ headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }, user: language === null ? null : { language } }) as unknown as FastifyRequest;
    expect(requestLanguage(request('de-AT,de;q=0.9', 'fr'))).toBe('fr');
    expect(requestLanguage(request('en-XA', 'fr'))).toBe('en-XA');
    expect(requestLanguage(request('de, en-XA', 'fr'))).toBe('fr');
    expect(requestLanguage(request('de-AT,de;q=0.9', null))).toBe('de');
    expect(requestLanguage(request(undefined, null))).toBe('en');
    expect(requestLanguage(request('ja', 'tlh'))).toBe('en');
  });

  it('translates success answers with values, and plurals by count', async () => {
    const { cookie } = await createSignedInUser(t);
    const created = await t.request('POST', '/api/tasks', { cookie, headers: PSEUDO, body: { taskTitle: 'A pseudo task', assignee: uniqueEmail() } });
    expect(created.status, created.body).toBe(201);
    expect(created.json.message).toBe(pseudo(SERVER_MESSAGES.taskCreated));

    const one = await createTask(t, cookie);
    const two = await createTask(t, cookie);
    const bulk = async (taskIds: string[], headers: Record<string, string> = {}) => {
      const res = await t.request('POST', '/api/tasks/bulk', { cookie, headers, body: { taskIds, change: { priority: 'high' } } });
      expect(res.status, res.body).toBe(200);
      return res.json.message;
    };
    expect(await bulk([one._id])).toBe('1 task changed.');
    expect(await bulk([one._id, two._id])).toBe('2 tasks changed.');
    const pseudoBulk = await bulk([one._id, two._id, created.json.data.task._id], PSEUDO);
    expect(pseudoBulk).toBe(pseudo(message('{count, plural, one {# task changed.} other {# tasks changed.}}', { count: 3 })));
    expect(pseudoBulk).toContain('3');
    expect(pseudoBulk).not.toBe('3 tasks changed.');
  });
});

describe('error messages in the reader’s language', () => {
  it("translates the message and every field's message of a validation error, and leaves English unchanged without a header", async () => {
    const { cookie } = await createSignedInUser(t);
    const body = { taskTitle: 'x', assignee: uniqueEmail(), deadline: '2020-01-01T00:00:00Z' };
    const english400 = await t.request('POST', '/api/tasks', { cookie, body });
    expect(english400.status, english400.body).toBe(400);
    expect(english400.json).toEqual({
      status: 'fail',
      code: 'VALIDATION_FAILED',
      message: SERVER_MESSAGES.validationFailed,
      errors: [
        { field: 'taskTitle', message: 'Task title must be at least 3 characters.' },
        { field: 'deadline', message: 'Deadline cannot be in the past.' },
      ],
    });
    const pseudo400 = await t.request('POST', '/api/tasks', { cookie, body, headers: PSEUDO });
    expect(pseudo400.json).toEqual({
      status: 'fail',
      code: 'VALIDATION_FAILED',
      message: pseudo(SERVER_MESSAGES.validationFailed),
      errors: english400.json.errors.map(({ field, message: text }) => ({ field, message: pseudo(text) })),
    });
    for (const { message: text } of pseudo400.json.errors) expect(text).not.toMatch(/^[\x20-\x7e]*$/);
  });

  it('translates the schema validator’s messages, field labels included, keeping machine words', async () => {
    const login = (headers: Record<string, string>) => t.request('POST', '/api/users/login', { body: { email: 'ada@example.com' }, ip: nextIp(), headers });
    const plain = await login({});
    expect(plain.status).toBe(400);
    expect(plain.json.errors).toEqual([{ field: 'password', message: 'Password is required.' }]);
    expect((await login(PSEUDO)).json.errors).toEqual([{ field: 'password', message: pseudo('Password is required.') }]);

    const { cookie } = await createSignedInUser(t);
    const week = await patchSettings(cookie, { weekStart: 'friday' }, PSEUDO);
    expect(week.json.errors).toEqual([{ field: 'weekStart', message: pseudo('weekStart must be one of: monday, sunday, saturday.') }]);
  });

  it("answers an AppError and a missing address in the reader's language", async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('DELETE', '/api/tasks/no-such-task', { cookie, headers: PSEUDO });
    expect(res.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: pseudo(SERVER_MESSAGES.taskNotFound) });
    expect(english(SERVER_MESSAGES.taskNotFound)).toBe('Task not found.');
    const missing = await t.request('GET', '/api/no-such-thing', { headers: PSEUDO });
    expect(missing.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: pseudo(SERVER_MESSAGES.routeNotFound) });
  });
});
