import { OTP_POLICY, type BoardRole, type Priority } from '#shared/constants.ts';

/**
 * Every mail Taskwise sends, in one place: a subject that says what happened, and the same
 * content as plain text and as simple HTML (inline styles only, no images, no web fonts; the
 * colours are declared for both light and dark clients, and text stays readable when a client
 * drops the styles). Each body names the product, says what happened, why the person got it,
 * and carries the one action link.
 */

const PRODUCT = 'Taskwise';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Layout {
  subject: string;
  /** The first sentence: what happened. */
  lead: string;
  /** Label/value lines (task details). */
  details?: [string, string][];
  /** A code shown on its own line (text) and large (HTML). */
  code?: string;
  /** Someone's own words (a comment), quoted after the details. */
  quote?: string;
  /** Paragraphs after the details. */
  paragraphs?: string[];
  action?: { label: string; url: string };
  /** Why this person got the mail. */
  reason: string;
  /** Where to turn this kind of mail off (optional mails only). */
  unsubscribeUrl?: string;
  appOrigin: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function renderText(m: Layout): string {
  const lines = ['Hello,', '', m.lead, ''];
  if (m.details !== undefined && m.details.length > 0) {
    for (const [label, value] of m.details) lines.push(`${label}: ${value}`);
    lines.push('');
  }
  if (m.code !== undefined) lines.push(m.code, '');
  if (m.quote !== undefined) lines.push(...m.quote.split('\n').map((line) => `> ${line}`), '');
  for (const p of m.paragraphs ?? []) lines.push(p, '');
  if (m.action !== undefined) lines.push(`${m.action.label}: ${m.action.url}`, '');
  lines.push('--', m.reason);
  if (m.unsubscribeUrl !== undefined) lines.push(`Turn these mails off: ${m.unsubscribeUrl}`);
  lines.push(`${PRODUCT} - ${m.appOrigin}`, '');
  return lines.join('\n');
}

const FONT = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica,Arial,sans-serif';

function renderHtml(m: Layout): string {
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
      p(`Or open this address: ${m.action.url}`),
    );
  }
  const small = `margin:0 0 8px;${FONT};font-size:13px;line-height:1.5`;
  parts.push(`<hr style="border:none;border-top:1px solid #888888;margin:24px 0 16px">`);
  parts.push(`<p style="${small}">${escapeHtml(m.reason)}</p>`);
  if (m.unsubscribeUrl !== undefined) {
    parts.push(`<p style="${small}"><a href="${escapeHtml(m.unsubscribeUrl)}" style="color:inherit;text-decoration:underline">Turn these mails off</a></p>`);
  }
  parts.push(`<p style="${small}">${PRODUCT} - ${escapeHtml(m.appOrigin)}</p>`);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">',
    `<title>${escapeHtml(m.subject)}</title></head>`,
    // No background or text colour of our own on the body: each client's light or dark theme
    // applies, so nothing becomes dark-on-dark. Only the button sets both of its colours.
    `<body style="margin:0;padding:24px"><div style="max-width:560px;margin:0 auto">${parts.join('')}</div></body></html>`,
  ].join('');
}

function render(m: Layout): MailContent {
  return { subject: m.subject, text: renderText(m), html: renderHtml(m) };
}

/**
 * Made once: building an Intl.DateTimeFormat costs about 40 µs of CPU (ICU loads its patterns),
 * formatting with a built one about 1 µs, and every assignment or reminder mail with a deadline
 * formats one (docs/performance.md, "Where a write's time goes").
 */
const DEADLINE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A deadline as people read it in a mail (the reader's time zone is unknown: UTC, said so). */
export function formatDeadline(iso: string): string {
  return `${DEADLINE_FORMAT.format(new Date(iso))} UTC`;
}

const PRIORITY_LABEL: Record<Priority, string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };
const CODE_MINUTES = OTP_POLICY.ttlMs / 60_000;

export function signUpCodeMail(appOrigin: string, code: string): MailContent {
  return render({
    appOrigin,
    subject: `Your ${PRODUCT} sign-up code`,
    lead: `Your ${PRODUCT} sign-up code is:`,
    code,
    paragraphs: [`It expires in ${CODE_MINUTES} minutes and works once.`],
    reason: 'You got this mail because someone asked for a sign-up code for this address. If it was not you, ignore it.',
  });
}

export function accountExistsMail(appOrigin: string): MailContent {
  return render({
    appOrigin,
    subject: `Your ${PRODUCT} account`,
    lead: `Someone (hopefully you) asked for a sign-up code for this address, but it already has a ${PRODUCT} account.`,
    action: { label: 'Sign in', url: `${appOrigin}/login` },
    paragraphs: ['Forgot your password? Use "Forgot password?" on the sign-in page.'],
    reason: 'You got this mail because someone asked for a sign-up code for this address. If it was not you, ignore it.',
  });
}

export function passwordResetCodeMail(appOrigin: string, code: string): MailContent {
  return render({
    appOrigin,
    subject: `Your ${PRODUCT} password reset code`,
    lead: `Your ${PRODUCT} password reset code is:`,
    code,
    paragraphs: [
      `Enter it on the reset page with your new password. It expires in ${CODE_MINUTES} minutes and works once. Every signed-in device will be signed out.`,
    ],
    action: { label: 'Reset your password', url: `${appOrigin}/reset-password` },
    reason: 'You got this mail because someone asked to reset the password of this account. If it was not you, ignore it: your password stays as it is.',
  });
}

export function passwordResetNoAccountMail(appOrigin: string, email: string): MailContent {
  return render({
    appOrigin,
    subject: `No ${PRODUCT} account for this address`,
    lead: `Someone (hopefully you) asked to reset a ${PRODUCT} password for ${email}, but there is no account with this address.`,
    action: { label: 'Create an account', url: `${appOrigin}/sign-up?email=${encodeURIComponent(email)}` },
    reason: 'You got this mail because someone entered this address on the password reset page. If it was not you, ignore it.',
  });
}

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

export function assignedMail(m: AssignedMailInput): MailContent {
  const details: [string, string][] = [['Task', m.taskTitle]];
  if (m.workTitle !== '') details.push(['Work', m.workTitle]);
  details.push(['Assigned by', m.assignorName], ['Priority', PRIORITY_LABEL[m.priority]]);
  if (m.deadline !== null) details.push(['Deadline', formatDeadline(m.deadline)]);
  return render({
    appOrigin: m.appOrigin,
    subject: `${m.assignorName} assigned you: ${m.taskTitle}`,
    lead: `${m.assignorName} assigned you a task on ${PRODUCT}.`,
    details,
    ...(m.hasAccount ? {} : { paragraphs: [`Create a ${PRODUCT} account with this address to see and complete it.`] }),
    action: m.hasAccount ? { label: 'Open the task', url: m.link } : { label: 'Create your account', url: m.link },
    reason: 'You got this mail because a task was assigned to this address.',
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
export function assignedManyMail(m: AssignedManyMailInput): MailContent {
  const n = m.taskTitles.length;
  const details: [string, string][] = m.taskTitles.slice(0, LISTED_TITLES).map((title) => ['Task', title]);
  if (n > LISTED_TITLES) details.push(['And', `${n - LISTED_TITLES} more`]);
  details.push(['Assigned by', m.assignorName]);
  return render({
    appOrigin: m.appOrigin,
    subject: `${m.assignorName} assigned you ${n} tasks`,
    lead: `${m.assignorName} assigned you ${n} tasks on ${PRODUCT}.`,
    details,
    ...(m.hasAccount ? {} : { paragraphs: [`Create a ${PRODUCT} account with this address to see and complete them.`] }),
    action: m.hasAccount ? { label: 'Open your tasks', url: m.link } : { label: 'Create your account', url: m.link },
    reason: 'You got this mail because tasks were assigned to this address.',
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

export function reminderMail(m: ReminderMailInput): MailContent {
  const when = formatDeadline(m.deadline);
  const reason =
    m.role === 'assignee'
      ? 'You got this mail because this task is assigned to you.'
      : m.role === 'creator'
        ? 'You got this mail because you created this task.'
        : 'You got this mail because you created this task and it is assigned to you.';
  return render({
    appOrigin: m.appOrigin,
    subject: m.kind === 'due-soon' ? `Due soon: ${m.taskTitle}` : `Overdue: ${m.taskTitle}`,
    lead: m.kind === 'due-soon' ? `A task is due within 24 hours (${when}).` : `A task is past its deadline (${when}) and still open.`,
    details: [
      ['Task', m.taskTitle],
      ['Assignee', m.assigneeEmail],
      ['Deadline', when],
    ],
    action: { label: 'Open the task', url: m.link },
    reason,
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

const ROLE_LABEL: Record<BoardRole, string> = {
  admin: 'Admin (can change the board and its members)',
  member: 'Member (can create and change its tasks)',
  viewer: 'Viewer (can see its tasks and comment)',
};

export function boardAddedMail(m: BoardAddedMailInput): MailContent {
  return render({
    appOrigin: m.appOrigin,
    subject: `${m.adderName} added you to ${m.boardName}`,
    lead: `${m.adderName} added you to the board "${m.boardName}" on ${PRODUCT}.`,
    details: [
      ['Board', m.boardName],
      ['Your role', ROLE_LABEL[m.role]],
    ],
    ...(m.hasAccount ? {} : { paragraphs: [`Create a ${PRODUCT} account with this address to see the board: it is waiting for you.`] }),
    action: m.hasAccount ? { label: 'Open the board', url: m.link } : { label: 'Create your account', url: m.link },
    reason: 'You got this mail because this address was added to a board.',
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

export function mentionedMail(m: MentionedMailInput): MailContent {
  return render({
    appOrigin: m.appOrigin,
    subject: `${m.authorName} mentioned you on ${m.taskTitle}`,
    lead: `${m.authorName} mentioned you in a comment on ${PRODUCT}.`,
    details: [['Task', m.taskTitle]],
    quote: m.comment,
    ...(m.hasAccount ? {} : { paragraphs: [`Create a ${PRODUCT} account with this address to see the task and answer.`] }),
    action: m.hasAccount ? { label: 'Open the task', url: m.link } : { label: 'Create your account', url: m.link },
    reason: 'You got this mail because someone mentioned this address in a comment on a task you can see.',
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
export function webhookPausedMail(m: WebhookPausedMailInput): MailContent {
  return render({
    appOrigin: m.appOrigin,
    subject: `A webhook of ${m.boardName} was paused`,
    lead: `Every delivery to a webhook of the board "${m.boardName}" has failed for 24 hours, so ${PRODUCT} paused it.`,
    details: [
      ['Board', m.boardName],
      ['Webhook', m.url],
    ],
    paragraphs: ['No events are sent to it while it is paused. Once the receiver works again, resume the webhook in the board\'s settings; you can redeliver recent events from its delivery log.'],
    action: { label: 'Open the board settings', url: m.link },
    reason: 'You got this mail because you are an admin of this board.',
  });
}

/** An instance admin invited the address to make an account. */
export function instanceInvitationMail(m: { appOrigin: string; email: string; inviterName: string }): MailContent {
  return render({
    appOrigin: m.appOrigin,
    subject: `You are invited to ${PRODUCT}`,
    lead: `${m.inviterName}, an administrator of ${PRODUCT} at ${m.appOrigin}, invited you to make an account.`,
    action: { label: 'Sign up', url: `${m.appOrigin}/sign-up?email=${encodeURIComponent(m.email)}` },
    paragraphs: ['Sign up with this address: a code will be mailed to it to confirm it is yours.'],
    reason: 'You got this mail because an administrator of this server entered your address. If you do not want an account, ignore it.',
  });
}
