import { describe, expect, it } from 'vitest';
import { message, text } from '#shared/i18n.ts';
import { english, translate } from '../i18n/translate.ts';
import { codeFrom } from './mail-catcher.ts';
import { createSignedInUser, createTask, createUser, nextIp, setAccountLanguage, uniqueEmail } from './factories.ts';
import { useTestApp } from './helpers.ts';

/**
 * Mails are written in their reader's language, read from the test's own SMTP server: the
 * language of the recipient's account when the mail goes out, whatever language the sender
 * speaks; for an address without an account, the sender's (or, for a code, the request's).
 * Each expectation is the catalog's translation, and proven to differ from the English.
 */
const t = useTestApp();

const setLanguage = (cookie: string, language: string) => setAccountLanguage(t, cookie, language);

/** The text in `language`, checked to be a translation (not the English falling through). */
const inLanguage = (language: 'de' | 'ja' | 'ar', words: Parameters<typeof translate>[1]) => {
  const said = translate(language, words);
  expect(said).not.toBe(english(words));
  return said;
};

describe('mails in the reader’s language', () => {
  it('an assignment: in the assignee’s language (German), not the assignor’s (Japanese)', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    await setLanguage(ada.cookie, 'ja');
    const bob = await createSignedInUser(t);
    await setLanguage(bob.cookie, 'de');
    await createTask(t, ada.cookie, { taskTitle: 'Send the invoice', assignee: bob.user.email, priority: 'high' });
    await t.app.outbox.drain();

    const mail = t.mail.last(bob.user.email);
    expect(mail.subject).toBe(inLanguage('de', message('{name} assigned you: {title}', { name: 'Ada', title: 'Send the invoice' })));
    expect(mail.text).toContain(`${inLanguage('de', text('Priority'))}: ${inLanguage('de', text('High'))}`);
    expect(mail.text).toContain(inLanguage('de', text('You got this mail because a task was assigned to this address.')));
    expect(mail.html).toContain('<html lang="de">');
  });

  it('a mention: in the mentioned person’s language (Japanese); a language changed after the change counts', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    const bob = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie, { taskTitle: 'Plan the launch', assignee: bob.user.email });
    await t.app.outbox.drain();
    const res = await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie: ada.cookie, body: { body: `@${bob.user.email} please have a look` } });
    expect(res.status, res.body).toBe(201);
    // Bob switches to Japanese while the mail waits in the outbox: it goes out in Japanese.
    await setLanguage(bob.cookie, 'ja');
    await t.app.outbox.drain();

    const mail = t.mail.last(bob.user.email);
    expect(mail.subject).toBe(inLanguage('ja', message('{name} mentioned you on {title}', { name: 'Ada', title: 'Plan the launch' })));
    expect(mail.text).toContain(inLanguage('ja', message('{name} mentioned you in a comment on Taskwise.', { name: 'Ada' })));
    expect(mail.text).toContain('please have a look');
  });

  it('an address without an account: in the language of the person who assigned it (Arabic), right to left', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    await setLanguage(ada.cookie, 'ar');
    const stranger = uniqueEmail('stranger');
    await createTask(t, ada.cookie, { taskTitle: 'Check the van', assignee: stranger });
    await t.app.outbox.drain();

    const mail = t.mail.last(stranger);
    expect(mail.subject).toBe(inLanguage('ar', message('{name} assigned you: {title}', { name: 'Ada', title: 'Check the van' })));
    expect(mail.text).toContain(inLanguage('ar', text('Create a Taskwise account with this address to see and complete it.')));
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('a sign-up code: in the language the browser asks for (Arabic, German, Japanese)', async () => {
    for (const [header, language] of [
      ['ar', 'ar'],
      ['de-CH, de;q=0.9', 'de'],
      ['ja-JP', 'ja'],
    ] as const) {
      const email = uniqueEmail(`code-${language}`);
      const res = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp(), headers: { 'accept-language': header } });
      expect(res.status, res.body).toBe(201);
      const mail = t.mail.last(email);
      expect(mail.subject).toBe(inLanguage(language, text('Your Taskwise sign-up code')));
      expect(codeFrom(mail)).toMatch(/^\d{6}$/);
    }
  });

  it('a password reset code: in the account’s language (German), whatever the browser asks for', async () => {
    const bob = await createSignedInUser(t);
    await setLanguage(bob.cookie, 'de');
    const res = await t.request('POST', '/api/password-resets', { body: { email: bob.user.email }, ip: nextIp(), headers: { 'accept-language': 'ja' } });
    expect(res.status, res.body).toBe(201);
    const mail = t.mail.last(bob.user.email);
    expect(mail.subject).toBe(inLanguage('de', text('Your Taskwise password reset code')));
  });

  it('an account made before languages reads English, and English mails stay as they were', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    const bob = await createUser(t);
    await createTask(t, ada.cookie, { taskTitle: 'Water the plants', assignee: bob.email });
    await t.app.outbox.drain();
    expect(t.mail.last(bob.email).subject).toBe('Ada assigned you: Water the plants');
  });
});
