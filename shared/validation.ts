import { LIMITS } from './constants.ts';
import { isValidEmail, normalizeEmail } from './email.ts';
import { asMessage, message, text, type Message, type Translatable } from './i18n.ts';

/**
 * Field rules that JSON Schema cannot express (trimming, cross-field checks). The server runs
 * them after schema validation; the web forms run the same functions before sending.
 * Each returns the normalized value or an error message: a fixed text (a string), or a message
 * with values (`Message`, which the web app shows with `i18n._(…)`, the server in the reader's
 * language). `Checked<T, string>` is a check whose every message is a fixed text, `Checked<T, Message>`
 * one whose messages are all messages (its fixed texts too, as `{ id }`): each is one type, which
 * `i18n._(…)` takes.
 */
export type Checked<T, M extends Translatable = Translatable> = { ok: true; value: T } | { ok: false; message: M };

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
const fail = <M extends Translatable>(message: M): { ok: false; message: M } => ({ ok: false, message });

export function checkEmail(raw: string): Checked<string, string> {
  const email = normalizeEmail(raw);
  return isValidEmail(email) ? ok(email) : fail(text('Enter a valid e-mail address.'));
}

export function checkFullName(raw: string): Checked<string, Message> {
  const name = raw.trim();
  if (name.length < LIMITS.fullNameMin) return fail(asMessage(text('Full name is required.')));
  if (name.length > LIMITS.fullNameMax) return fail(message('Full name must be at most {max} characters.', { max: LIMITS.fullNameMax }));
  return ok(name);
}

/** NIST 800-63B: length only, and not the e-mail itself. No composition rules. */
export function checkPassword(password: string, email: string): Checked<string, Message> {
  if (password.length < LIMITS.passwordMin) return fail(message('Password must be at least {min} characters.', { min: LIMITS.passwordMin }));
  if (password.length > LIMITS.passwordMax) return fail(message('Password must be at most {max} characters.', { max: LIMITS.passwordMax }));
  if (normalizeEmail(password) === normalizeEmail(email)) return fail(asMessage(text('Password must not be your e-mail address.')));
  return ok(password);
}

export function checkOtp(raw: string): Checked<string, Message> {
  const code = raw.trim();
  return new RegExp(`^\\d{${LIMITS.otpLength}}$`).test(code)
    ? ok(code)
    : fail(message('The code is {length} digits.', { length: LIMITS.otpLength }));
}

export function checkTaskTitle(raw: string): Checked<string, Message> {
  const title = raw.trim();
  if (title.length < LIMITS.taskTitleMin) return fail(message('Task title must be at least {min} characters.', { min: LIMITS.taskTitleMin }));
  if (title.length > LIMITS.taskTitleMax) return fail(message('Task title must be at most {max} characters.', { max: LIMITS.taskTitleMax }));
  return ok(title);
}

export function checkWorkTitle(raw: string | null | undefined): Checked<string, Message> {
  const title = (raw ?? '').trim();
  return title.length > LIMITS.workTitleMax
    ? fail(message('Work title must be at most {max} characters.', { max: LIMITS.workTitleMax }))
    : ok(title);
}

/** Plain text (never HTML), trimmed; empty means none. */
export function checkDescription(raw: string): Checked<string, Message> {
  const trimmed = raw.trim();
  return trimmed.length > LIMITS.descriptionMax
    ? fail(message('Description must be at most {max} characters.', { max: LIMITS.descriptionMax }))
    : ok(trimmed);
}

export function checkCommentBody(raw: string): Checked<string, Message> {
  const body = raw.trim();
  if (body.length < LIMITS.commentMin) return fail(asMessage(text('Comment cannot be empty.')));
  if (body.length > LIMITS.commentMax) return fail(message('Comment must be at most {max} characters.', { max: LIMITS.commentMax }));
  return ok(body);
}

export function checkChecklistText(raw: string): Checked<string, Message> {
  const trimmed = raw.trim();
  if (trimmed.length < LIMITS.checklistTextMin) return fail(asMessage(text('Checklist item cannot be empty.')));
  if (trimmed.length > LIMITS.checklistTextMax) return fail(message('Checklist item must be at most {max} characters.', { max: LIMITS.checklistTextMax }));
  return ok(trimmed);
}

/** A repeating task needs a deadline to repeat from; `repeat` null (or absent) needs nothing. */
export function checkRepeat<R>(repeat: R | null | undefined, hasDeadline: boolean): Checked<R | null, string> {
  if (repeat === undefined || repeat === null) return ok(null);
  return hasDeadline ? ok(repeat) : fail(text('A repeating task needs a deadline.'));
}

const OFFSET_RE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[zZ]|[+-]\d{2}:?\d{2})?$/;

/** Date() rolls 30 February over into March; refuse days the month does not have. */
function isRealCalendarDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return m >= 1 && m <= 12 && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/**
 * A deadline as ISO 8601 (no offset = UTC), or none for `""`/`null`/absent.
 * `now` is the server's (or browser's) clock; a deadline earlier than the current minute fails.
 */
export function checkDeadline(raw: string | null | undefined, now: Date): Checked<Date | null, string> {
  if (raw === undefined || raw === null || raw.trim() === '') return ok(null);
  const trimmed = raw.trim();
  if (!ISO_RE.test(trimmed)) return fail(text('Deadline must be an ISO 8601 date and time.'));
  const date = new Date(OFFSET_RE.test(trimmed) ? trimmed : `${trimmed}Z`);
  if (Number.isNaN(date.getTime()) || !isRealCalendarDate(trimmed)) {
    return fail(text('Deadline must be an ISO 8601 date and time.'));
  }
  const currentMinute = Math.floor(now.getTime() / 60_000) * 60_000;
  if (date.getTime() < currentMinute) return fail(text('Deadline cannot be in the past.'));
  return ok(date);
}

/** A task's start as ISO 8601 (no offset = UTC), or none for `""`/`null`/absent; any instant, past ones included. */
export function checkStartAt(raw: string | null | undefined): Checked<Date | null, string> {
  if (raw === undefined || raw === null || raw.trim() === '') return ok(null);
  const trimmed = raw.trim();
  const date = new Date(OFFSET_RE.test(trimmed) ? trimmed : `${trimmed}Z`);
  if (!ISO_RE.test(trimmed) || Number.isNaN(date.getTime()) || !isRealCalendarDate(trimmed)) return fail(text('Start must be an ISO 8601 date and time.'));
  return ok(date);
}

/**
 * A start and a deadline (ISO 8601 UTC text, null when unset) agree: whenever both are set the
 * start is not after the deadline. `set`: the field the change set (the start when it set both),
 * whose message the failure carries.
 */
export function checkStartBeforeDeadline(startAt: string | null, deadline: string | null, set: 'startAt' | 'deadline'): Checked<null, string> {
  if (startAt === null || deadline === null || startAt <= deadline) return ok(null);
  return fail(set === 'startAt' ? text('Start cannot be after the deadline.') : text('Deadline cannot be before the start.'));
}

export function checkBoardName(raw: string): Checked<string, Message> {
  const name = raw.trim();
  if (name.length < LIMITS.boardNameMin) return fail(asMessage(text('Board name is required.')));
  if (name.length > LIMITS.boardNameMax) return fail(message('Board name must be at most {max} characters.', { max: LIMITS.boardNameMax }));
  return ok(name);
}

/** A label's name: trimmed, 1 to 40 characters (unique on its board ignoring case: the server checks that). */
export function checkLabelName(raw: string): Checked<string, Message> {
  const name = raw.trim();
  if (name.length < LIMITS.labelNameMin) return fail(asMessage(text('Label name is required.')));
  if (name.length > LIMITS.labelNameMax) return fail(message('Label name must be at most {max} characters.', { max: LIMITS.labelNameMax }));
  return ok(name);
}

/** A task's labels (`labelIds`): repeats dropped, at most 10 (whether they are its board's, the server checks). */
export function checkLabelIds(ids: readonly string[]): Checked<string[], Message> {
  const distinct = [...new Set(ids)];
  return distinct.length > LIMITS.labelsPerTask ? fail(message('A task can have at most {max} labels.', { max: LIMITS.labelsPerTask })) : ok(distinct);
}

/** A board's description: plain text, trimmed; empty means none. */
export function checkBoardDescription(raw: string): Checked<string, Message> {
  const trimmed = raw.trim();
  return trimmed.length > LIMITS.boardDescriptionMax
    ? fail(message('Board description must be at most {max} characters.', { max: LIMITS.boardDescriptionMax }))
    : ok(trimmed);
}
