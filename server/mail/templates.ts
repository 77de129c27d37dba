import { OTP_POLICY, type BoardRole, type Priority } from '#shared/constants.ts';
import { message, text, type Translatable } from '#shared/i18n.ts';
import { DEFAULT_LANGUAGE, HOUR_CYCLES, isRightToLeft, type HourCycle } from '#shared/languages.ts';
import { displayName, PRIORITY_LABEL } from '../i18n/names.ts';
import { translate, type ReaderLanguage } from '../i18n/translate.ts';

/**
 * Every mail Taskwise sends, in one place: a subject that says what happened, and the same
 * content as plain text and as simple HTML (inline styles only, no images, no web fonts; the
 * colours are declared for both light and dark clients, and text stays readable when a client
 * drops the styles). Each body names the product, says what happened, why the person got it,
 * and carries the one action link. Each is written in its reader's language (`Reader`): the
 * outbox keeps what a mail is made of (`MailTexts`) and the sender writes it when it goes out,
 * in the language of the recipient's account then, or — for an address without one — of the
 * person or request that caused it.
 */

const PRODUCT = 'Taskwise';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Who reads a mail: their language, and their clock (12 or 24 hours) for the times in it. */
export interface Reader {
  language: ReaderLanguage;
  hourCycle?: HourCycle;
}

/** English with its default clock: the copy a write keeps, and templates' default reader. */
export const ENGLISH: Reader = { language: DEFAULT_LANGUAGE };

/** A stored clock (`users.hour_cycle`) as a reader's, when it is one. */
export function hourCycleOf(stored: string): { hourCycle?: HourCycle } {
  return (HOUR_CYCLES as readonly string[]).includes(stored) ? { hourCycle: stored as HourCycle } : {};
}

/** A mail's parts; `T` is a text to translate (`Translatable`) until `render` has written them. */
interface Layout<T = Translatable> {
  reader: Reader;
  subject: T;
  /** The first sentence: what happened. */
  lead: T;
  /** Label/value lines (task details). */
  details?: [T, string][];
  /** A code shown on its own line (text) and large (HTML). */
  code?: string;
  /** Someone's own words (a comment), quoted after the details. */
  quote?: string;
  /** Paragraphs after the details. */
  paragraphs?: T[];
  action?: { label: T; url: string };
  /** Why this person got the mail. */
  reason: T;
  /** Where to turn this kind of mail off (optional mails only). */
  unsubscribeUrl?: string;
  appOrigin: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function renderText(m: Layout<string>): string {
  const t = (words: Translatable) => translate(m.reader.language, words);
  // i18n: The greeting that opens every mail (the reader's name is not used).
  const lines = [t(text('Hello,')), '', m.lead, ''];
  if (m.details !== undefined && m.details.length > 0) {
    for (const [label, value] of m.details) lines.push(`${label}: ${value}`);
    lines.push('');
  }
  if (m.code !== undefined) lines.push(m.code, '');
  if (m.quote !== undefined) lines.push(...m.quote.split('\n').map((line) => `> ${line}`), '');
  for (const p of m.paragraphs ?? []) lines.push(p, '');
  if (m.action !== undefined) lines.push(`${m.action.label}: ${m.action.url}`, '');
  lines.push('--', m.reason);
  if (m.unsubscribeUrl !== undefined) lines.push(t(message('Turn these mails off: {url}', { url: m.unsubscribeUrl })));
  lines.push(`${PRODUCT} - ${m.appOrigin}`, '');
  return lines.join('\n');
}

const FONT = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica,Arial,sans-serif';

function renderHtml(m: Layout<string>): string {
  const t = (words: Translatable) => translate(m.reader.language, words);
  const p = (text: string) => `<p style="margin:0 0 16px;${FONT};font-size:16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const parts: string[] = [];
  parts.push(`<p style="margin:0 0 8px;${FONT};font-size:14px;font-weight:bold;letter-spacing:.04em">${PRODUCT}</p>`);
  parts.push(p(m.lead));
  if (m.details !== undefined && m.details.length > 0) {
    const rows = m.details
      .map(
        ([label, value]) =>
          `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;${FONT};font-size:15px;font-weight:bold;vertical-align:top">${escapeHtml(label)}</th>` +
          `<td style="padding:4px 0;${FONT};font-size:15px">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
    parts.push(`<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`);
  }
  if (m.code !== undefined) {
    parts.push(
      `<p style="margin:0 0 16px;font-family:Consolas,Menlo,monospace;font-size:28px;font-weight:bold;letter-spacing:.2em">${escapeHtml(m.code)}</p>`,
    );
  }
  if (m.quote !== undefined) {
    // Plain text as typed: escaped, line breaks kept, set off by a rule on the left.
    parts.push(
      `<blockquote style="margin:0 0 16px;padding:4px 0 4px 12px;border-left:4px solid #888888;${FONT};font-size:16px;line-height:1.5;white-space:pre-wrap">${escapeHtml(m.quote)}</blockquote>`,
    );
  }
  for (const text of m.paragraphs ?? []) parts.push(p(text));
  if (m.action !== undefined) {
    const url = escapeHtml(m.action.url);
    parts.push(
      `<p style="margin:0 0 24px"><a href="${url}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#1d4ed8;color:#ffffff;${FONT};font-size:16px;font-weight:bold;text-decoration:underline">${escapeHtml(m.action.label)}</a></p>`,
      p(t(message('Or open this address: {url}', { url: m.action.url }))),
    );
  }
  const small = `margin:0 0 8px;${FONT};font-size:13px;line-height:1.5`;
  parts.push(`<hr style="border:none;border-top:1px solid #888888;margin:24px 0 16px">`);
  parts.push(`<p style="${small}">${escapeHtml(m.reason)}</p>`);
  if (m.unsubscribeUrl !== undefined) {
    parts.push(`<p style="${small}"><a href="${escapeHtml(m.unsubscribeUrl)}" style="color:inherit;text-decoration:underline">${escapeHtml(t(text('Turn these mails off')))}</a></p>`);
  }
  parts.push(`<p style="${small}">${PRODUCT} - ${escapeHtml(m.appOrigin)}</p>`);
  return [
    '<!doctype html>',
    `<html lang="${m.reader.language}"${isRightToLeft(m.reader.language) ? ' dir="rtl"' : ''}><head><meta charset="utf-8">`,
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">',
    `<title>${escapeHtml(m.subject)}</title></head>`,
    // No background or text colour of our own on the body: each client's light or dark theme
    // applies, so nothing becomes dark-on-dark. Only the button sets both of its colours.
    `<body style="margin:0;padding:24px"><div style="max-width:560px;margin:0 auto">${parts.join('')}</div></body></html>`,
  ].join('');
}

function render(m: Layout): MailContent {
  const t = (words: Translatable) => translate(m.reader.language, words);
  const { details, paragraphs, action, ...rest } = m;
  const written: Layout<string> = {
    ...rest,
    subject: t(m.subject),
    lead: t(m.lead),
    reason: t(m.reason),
    ...(details === undefined ? {} : { details: details.map(([label, value]): [string, string] => [t(label), value]) }),
    ...(paragraphs === undefined ? {} : { paragraphs: paragraphs.map(t) }),
    ...(action === undefined ? {} : { action: { label: t(action.label), url: action.url } }),
  };
  return { subject: written.subject, text: renderText(written), html: renderHtml(written) };
}

/**
 * Made once per language and clock: building an Intl.DateTimeFormat costs about 40 µs of CPU
 * (ICU loads its patterns), formatting with a built one about 1 µs, and every assignment or
 * reminder mail with a deadline formats one (docs/performance.md, "Where a write's time goes").
 */
const deadlineFormats = new Map<string, Intl.DateTimeFormat>();

function deadlineFormat(reader: Reader): Intl.DateTimeFormat {
  // The pseudo-language is English made longer: English dates.
  const locale = reader.language === 'en' || reader.language === 'en-XA' ? 'en-GB' : reader.language;
  const hourCycle = reader.hourCycle ?? 'h23';
  const key = `${locale}:${hourCycle}`;
  let format = deadlineFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle, timeZone: 'UTC' });
    deadlineFormats.set(key, format);
  }
  return format;
}

/** A deadline as its reader reads it in a mail (the reader's time zone is unknown: UTC, said so). */
export function formatDeadline(iso: string, reader: Reader = ENGLISH): string {
  // i18n: A date and time in a mail, in UTC because the reader's time zone is not known.
  return translate(reader.language, message('{when} UTC', { when: deadlineFormat(reader).format(new Date(iso)) }));
}

const CODE_MINUTES = OTP_POLICY.ttlMs / 60_000;

// i18n: Why a code mail came (the last lines of the mail).
const CODE_REASON = text('You got this mail because someone asked for a sign-up code for this address. If it was not you, ignore it.');

export function signUpCodeMail(appOrigin: string, code: string, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin,
    subject: text('Your Taskwise sign-up code'),
    lead: text('Your Taskwise sign-up code is:'),
    code,
    paragraphs: [message('It expires in {minutes, plural, one {# minute} other {# minutes}} and works once.', { minutes: CODE_MINUTES })],
    reason: CODE_REASON,
  });
}

export function accountExistsMail(appOrigin: string, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin,
    subject: text('Your Taskwise account'),
    lead: text('Someone (hopefully you) asked for a sign-up code for this address, but it already has a Taskwise account.'),
    action: { label: text('Sign in'), url: `${appOrigin}/login` },
    paragraphs: [text('Forgot your password? Use "Forgot password?" on the sign-in page.')],
    reason: CODE_REASON,
  });
}

export function passwordResetCodeMail(appOrigin: string, code: string, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin,
    subject: text('Your Taskwise password reset code'),
    lead: text('Your Taskwise password reset code is:'),
    code,
    paragraphs: [
      message('Enter it on the reset page with your new password. It expires in {minutes, plural, one {# minute} other {# minutes}} and works once. Every signed-in device will be signed out.', {
        minutes: CODE_MINUTES,
      }),
    ],
    action: { label: text('Reset your password'), url: `${appOrigin}/reset-password` },
    reason: text('You got this mail because someone asked to reset the password of this account. If it was not you, ignore it: your password stays as it is.'),
  });
}

export function passwordResetNoAccountMail(appOrigin: string, email: string, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin,
    subject: text('No Taskwise account for this address'),
    lead: message('Someone (hopefully you) asked to reset a Taskwise password for {email}, but there is no account with this address.', { email }),
    action: { label: text('Create an account'), url: `${appOrigin}/sign-up?email=${encodeURIComponent(email)}` },
    reason: text('You got this mail because someone entered this address on the password reset page. If it was not you, ignore it.'),
  });
}

/** The action of a mail to an address that may have no account yet: its page, or sign-up. */
const openOrSignUp = (hasAccount: boolean, label: Translatable, link: string) => (hasAccount ? { label, url: link } : { label: text('Create your account'), url: link });

export interface AssignedMailInput {
  appOrigin: string;
  assignorName: string;
  taskTitle: string;
  workTitle: string;
  priority: Priority;
  deadline: string | null;
  link: string;
  hasAccount: boolean;
  unsubscribeUrl: string;
}

export function assignedMail(m: AssignedMailInput, reader: Reader = ENGLISH): MailContent {
  const details: [Translatable, string][] = [[text('Task'), m.taskTitle]];
  if (m.workTitle !== '') details.push([text('Work'), m.workTitle]);
  details.push([text('Assigned by'), m.assignorName], [text('Priority'), translate(reader.language, PRIORITY_LABEL[m.priority])]);
  if (m.deadline !== null) details.push([text('Deadline'), formatDeadline(m.deadline, reader)]);
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: message('{name} assigned you: {title}', { name: m.assignorName, title: m.taskTitle }),
    lead: message('{name} assigned you a task on Taskwise.', { name: m.assignorName }),
    details,
    ...(m.hasAccount ? {} : { paragraphs: [text('Create a Taskwise account with this address to see and complete it.')] }),
    action: openOrSignUp(m.hasAccount, text('Open the task'), m.link),
    reason: text('You got this mail because a task was assigned to this address.'),
    unsubscribeUrl: m.unsubscribeUrl,
  });
}

export interface AssignedManyMailInput {
  appOrigin: string;
  assignorName: string;
  /** The tasks' titles, in the order of the change (listed up to 20, then how many more). */
  taskTitles: readonly string[];
  /** The page listing the tasks (with an account) or the sign-up page. */
  link: string;
  hasAccount: boolean;
  unsubscribeUrl: string;
}

/** Listed by name in a mail about many tasks; the rest are counted. */
const LISTED_TITLES = 20;

/** One mail for a change that assigned many tasks to the same address at once. */
export function assignedManyMail(m: AssignedManyMailInput, reader: Reader = ENGLISH): MailContent {
  const count = m.taskTitles.length;
  const details: [Translatable, string][] = m.taskTitles.slice(0, LISTED_TITLES).map((title) => [text('Task'), title]);
  // i18n: The last line of a list of tasks in a mail: how many more there are.
  if (count > LISTED_TITLES) details.push([text('And'), translate(reader.language, message('{count, plural, one {# more} other {# more}}', { count: count - LISTED_TITLES }))]);
  details.push([text('Assigned by'), m.assignorName]);
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: message('{name} assigned you {count, plural, one {# task} other {# tasks}}', { name: m.assignorName, count }),
    lead: message('{name} assigned you {count, plural, one {# task} other {# tasks}} on Taskwise.', { name: m.assignorName, count }),
    details,
    ...(m.hasAccount ? {} : { paragraphs: [text('Create a Taskwise account with this address to see and complete them.')] }),
    action: openOrSignUp(m.hasAccount, text('Open your tasks'), m.link),
    reason: text('You got this mail because tasks were assigned to this address.'),
    unsubscribeUrl: m.unsubscribeUrl,
  });
}

export interface ReminderMailInput {
  appOrigin: string;
  kind: 'due-soon' | 'overdue';
  taskTitle: string;
  deadline: string;
  assigneeEmail: string;
  link: string;
  /** Why this person gets it: the task is assigned to them, they created it, or both. */
  role: 'assignee' | 'creator' | 'both';
  unsubscribeUrl: string;
}

const REMINDER_REASONS: Record<ReminderMailInput['role'], Translatable> = {
  assignee: text('You got this mail because this task is assigned to you.'),
  creator: text('You got this mail because you created this task.'),
  both: text('You got this mail because you created this task and it is assigned to you.'),
};

export function reminderMail(m: ReminderMailInput, reader: Reader = ENGLISH): MailContent {
  const when = formatDeadline(m.deadline, reader);
  const dueSoon = m.kind === 'due-soon';
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: dueSoon ? message('Due soon: {title}', { title: m.taskTitle }) : message('Overdue: {title}', { title: m.taskTitle }),
    lead: dueSoon ? message('A task is due within 24 hours ({when}).', { when }) : message('A task is past its deadline ({when}) and still open.', { when }),
    details: [
      [text('Task'), m.taskTitle],
      [text('Assignee'), m.assigneeEmail],
      [text('Deadline'), when],
    ],
    action: { label: text('Open the task'), url: m.link },
    reason: REMINDER_REASONS[m.role],
    unsubscribeUrl: m.unsubscribeUrl,
  });
}

export interface BoardAddedMailInput {
  appOrigin: string;
  adderName: string;
  boardName: string;
  role: BoardRole;
  /** The board, or sign-up with the address filled in for an address without an account. */
  link: string;
  hasAccount: boolean;
  unsubscribeUrl: string;
}

const ROLE_LABEL: Record<BoardRole, Translatable> = {
  admin: text('Admin (can change the board and its members)'),
  member: text('Member (can create and change its tasks)'),
  viewer: text('Viewer (can see its tasks and comment)'),
};

export function boardAddedMail(m: BoardAddedMailInput, reader: Reader = ENGLISH): MailContent {
  const board = displayName(reader.language, m.boardName);
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: message('{name} added you to {board}', { name: m.adderName, board }),
    lead: message('{name} added you to the board "{board}" on Taskwise.', { name: m.adderName, board }),
    details: [
      [text('Board'), board],
      [text('Your role'), translate(reader.language, ROLE_LABEL[m.role])],
    ],
    ...(m.hasAccount ? {} : { paragraphs: [text('Create a Taskwise account with this address to see the board: it is waiting for you.')] }),
    action: openOrSignUp(m.hasAccount, text('Open the board'), m.link),
    reason: text('You got this mail because this address was added to a board.'),
    unsubscribeUrl: m.unsubscribeUrl,
  });
}

export interface MentionedMailInput {
  appOrigin: string;
  authorName: string;
  taskTitle: string;
  /** The comment, as written. */
  comment: string;
  /** The task, or sign-up with the address filled in for an address without an account (an assignee). */
  link: string;
  hasAccount: boolean;
  unsubscribeUrl: string;
}

export function mentionedMail(m: MentionedMailInput, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: message('{name} mentioned you on {title}', { name: m.authorName, title: m.taskTitle }),
    lead: message('{name} mentioned you in a comment on Taskwise.', { name: m.authorName }),
    details: [[text('Task'), m.taskTitle]],
    quote: m.comment,
    ...(m.hasAccount ? {} : { paragraphs: [text('Create a Taskwise account with this address to see the task and answer.')] }),
    action: openOrSignUp(m.hasAccount, text('Open the task'), m.link),
    reason: text('You got this mail because someone mentioned this address in a comment on a task you can see.'),
    unsubscribeUrl: m.unsubscribeUrl,
  });
}

export interface WebhookPausedMailInput {
  appOrigin: string;
  boardName: string;
  url: string;
  /** The board's settings, where the webhook is resumed. */
  link: string;
}

/** To a board's admins, once, when one of its webhooks is paused after 24 hours of failed deliveries. */
export function webhookPausedMail(m: WebhookPausedMailInput, reader: Reader = ENGLISH): MailContent {
  const board = displayName(reader.language, m.boardName);
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: message('A webhook of {board} was paused', { board }),
    lead: message('Every delivery to a webhook of the board "{board}" has failed for 24 hours, so Taskwise paused it.', { board }),
    details: [
      [text('Board'), board],
      [text('Webhook'), m.url],
    ],
    paragraphs: [text('No events are sent to it while it is paused. Once the receiver works again, resume the webhook in the board\'s settings; you can redeliver recent events from its delivery log.')],
    action: { label: text('Open the board settings'), url: m.link },
    reason: text('You got this mail because you are an admin of this board.'),
  });
}

export interface InstanceInvitationMailInput {
  appOrigin: string;
  email: string;
  inviterName: string;
}

/** An instance admin invited the address to make an account. */
export function instanceInvitationMail(m: InstanceInvitationMailInput, reader: Reader = ENGLISH): MailContent {
  return render({
    reader,
    appOrigin: m.appOrigin,
    subject: text('You are invited to Taskwise'),
    lead: message('{name}, an administrator of Taskwise at {origin}, invited you to make an account.', { name: m.inviterName, origin: m.appOrigin }),
    action: { label: text('Sign up'), url: `${m.appOrigin}/sign-up?email=${encodeURIComponent(m.email)}` },
    paragraphs: [text('Sign up with this address: a code will be mailed to it to confirm it is yours.')],
    reason: text('You got this mail because an administrator of this server entered your address. If you do not want an account, ignore it.'),
  });
}

/**
 * What an outbox mail is made of, stored with it (`outbox.texts`, JSON) so that the sender
 * writes it in its reader's language when it goes out (`writeMail`). `signUpLink` is where a
 * mail that may go to an address without an account leads when the address has none then;
 * `language` is the language of the person or request that caused the mail, for such an address.
 */
export type MailTexts = (
  | { template: 'assigned'; input: AssignedMailInput }
  | { template: 'assigned-many'; input: AssignedManyMailInput }
  | { template: 'reminder'; input: ReminderMailInput }
  | { template: 'board-added'; input: BoardAddedMailInput }
  | { template: 'mentioned'; input: MentionedMailInput }
  | { template: 'webhook-paused'; input: WebhookPausedMailInput }
  | { template: 'instance-invitation'; input: InstanceInvitationMailInput }
) & { signUpLink?: string; language?: ReaderLanguage };

/** The mail of `texts` for `reader`, to an address that has an account (`hasAccount`) or not. */
export function writeMail(texts: MailTexts, reader: Reader, hasAccount: boolean): MailContent {
  const account = <T extends { hasAccount: boolean; link: string }>(input: T): T =>
    texts.signUpLink === undefined ? input : { ...input, hasAccount, link: hasAccount ? input.link : texts.signUpLink };
  switch (texts.template) {
    case 'assigned':
      return assignedMail(account(texts.input), reader);
    case 'assigned-many':
      return assignedManyMail(account(texts.input), reader);
    case 'reminder':
      return reminderMail(texts.input, reader);
    case 'board-added':
      return boardAddedMail(account(texts.input), reader);
    case 'mentioned':
      return mentionedMail(account(texts.input), reader);
    case 'webhook-paused':
      return webhookPausedMail(texts.input, reader);
    case 'instance-invitation':
      return instanceInvitationMail(texts.input, reader);
  }
}
