import { LIMITS } from './constants.ts';
import { isValidEmail, normalizeEmail } from './email.ts';

/**
 * Field rules that JSON Schema cannot express (trimming, cross-field checks). The server runs
 * them after schema validation; the web forms run the same functions before sending.
 * Each returns the normalized value or an error message.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(message: string): Checked<T> => ({ ok: false, message });

export function checkEmail(raw: string): Checked<string> {
  const email = normalizeEmail(raw);
  return isValidEmail(email) ? ok(email) : fail('Enter a valid e-mail address.');
}

export function checkFullName(raw: string): Checked<string> {
  const name = raw.trim();
  if (name.length < LIMITS.fullNameMin) return fail('Full name is required.');
  if (name.length > LIMITS.fullNameMax) return fail(`Full name must be at most ${LIMITS.fullNameMax} characters.`);
  return ok(name);
}

/** NIST 800-63B: length only, and not the e-mail itself. No composition rules. */
export function checkPassword(password: string, email: string): Checked<string> {
  if (password.length < LIMITS.passwordMin) return fail(`Password must be at least ${LIMITS.passwordMin} characters.`);
  if (password.length > LIMITS.passwordMax) return fail(`Password must be at most ${LIMITS.passwordMax} characters.`);
  if (normalizeEmail(password) === normalizeEmail(email)) return fail('Password must not be your e-mail address.');
  return ok(password);
}

export function checkOtp(raw: string): Checked<string> {
  const code = raw.trim();
  return new RegExp(`^\\d{${LIMITS.otpLength}}$`).test(code)
    ? ok(code)
    : fail(`The code is ${LIMITS.otpLength} digits.`);
}

export function checkTaskTitle(raw: string): Checked<string> {
  const title = raw.trim();
  if (title.length < LIMITS.taskTitleMin) return fail(`Task title must be at least ${LIMITS.taskTitleMin} characters.`);
  if (title.length > LIMITS.taskTitleMax) return fail(`Task title must be at most ${LIMITS.taskTitleMax} characters.`);
  return ok(title);
}

export function checkWorkTitle(raw: string | null | undefined): Checked<string> {
  const title = (raw ?? '').trim();
  return title.length > LIMITS.workTitleMax
    ? fail(`Work title must be at most ${LIMITS.workTitleMax} characters.`)
    : ok(title);
}

/** Plain text (never HTML), trimmed; empty means none. */
export function checkDescription(raw: string): Checked<string> {
  const text = raw.trim();
  return text.length > LIMITS.descriptionMax
    ? fail(`Description must be at most ${LIMITS.descriptionMax} characters.`)
    : ok(text);
}

export function checkCommentBody(raw: string): Checked<string> {
  const body = raw.trim();
  if (body.length < LIMITS.commentMin) return fail('Comment cannot be empty.');
  if (body.length > LIMITS.commentMax) return fail(`Comment must be at most ${LIMITS.commentMax} characters.`);
  return ok(body);
}

export function checkChecklistText(raw: string): Checked<string> {
  const text = raw.trim();
  if (text.length < LIMITS.checklistTextMin) return fail('Checklist item cannot be empty.');
  if (text.length > LIMITS.checklistTextMax) return fail(`Checklist item must be at most ${LIMITS.checklistTextMax} characters.`);
  return ok(text);
}

/** A repeating task needs a deadline to repeat from; `repeat` null (or absent) needs nothing. */
export function checkRepeat<R>(repeat: R | null | undefined, hasDeadline: boolean): Checked<R | null> {
  if (repeat === undefined || repeat === null) return ok(null);
  return hasDeadline ? ok(repeat) : fail('A repeating task needs a deadline.');
}

const OFFSET_RE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[zZ]|[+-]\d{2}:?\d{2})?$/;

/** Date() rolls 30 February over into March; refuse days the month does not have. */
function isRealCalendarDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return m >= 1 && m <= 12 && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/**
 * A deadline as ISO 8601 (no offset = UTC), or none for `""`/`null`/absent.
 * `now` is the server's (or browser's) clock; a deadline earlier than the current minute fails.
 */
export function checkDeadline(raw: string | null | undefined, now: Date): Checked<Date | null> {
  if (raw === undefined || raw === null || raw.trim() === '') return ok(null);
  const text = raw.trim();
  if (!ISO_RE.test(text)) return fail('Deadline must be an ISO 8601 date and time.');
  const date = new Date(OFFSET_RE.test(text) ? text : `${text}Z`);
  if (Number.isNaN(date.getTime()) || !isRealCalendarDate(text)) {
    return fail('Deadline must be an ISO 8601 date and time.');
  }
  const currentMinute = Math.floor(now.getTime() / 60_000) * 60_000;
  if (date.getTime() < currentMinute) return fail('Deadline cannot be in the past.');
  return ok(date);
}

/** A task's start as ISO 8601 (no offset = UTC), or none for `""`/`null`/absent; any instant, past ones included. */
export function checkStartAt(raw: string | null | undefined): Checked<Date | null> {
  if (raw === undefined || raw === null || raw.trim() === '') return ok(null);
  const text = raw.trim();
  const date = new Date(OFFSET_RE.test(text) ? text : `${text}Z`);
  if (!ISO_RE.test(text) || Number.isNaN(date.getTime()) || !isRealCalendarDate(text)) return fail('Start must be an ISO 8601 date and time.');
  return ok(date);
}

/**
 * A start and a deadline (ISO 8601 UTC text, null when unset) agree: whenever both are set the
 * start is not after the deadline. `set`: the field the change set (the start when it set both),
 * whose message the failure carries.
 */
export function checkStartBeforeDeadline(startAt: string | null, deadline: string | null, set: 'startAt' | 'deadline'): Checked<null> {
  if (startAt === null || deadline === null || startAt <= deadline) return ok(null);
  return fail(set === 'startAt' ? 'Start cannot be after the deadline.' : 'Deadline cannot be before the start.');
}

export function checkBoardName(raw: string): Checked<string> {
  const name = raw.trim();
  if (name.length < LIMITS.boardNameMin) return fail('Board name is required.');
  if (name.length > LIMITS.boardNameMax) return fail(`Board name must be at most ${LIMITS.boardNameMax} characters.`);
  return ok(name);
}

/** A label's name: trimmed, 1 to 40 characters (unique on its board ignoring case: the server checks that). */
export function checkLabelName(raw: string): Checked<string> {
  const name = raw.trim();
  if (name.length < LIMITS.labelNameMin) return fail('Label name is required.');
  if (name.length > LIMITS.labelNameMax) return fail(`Label name must be at most ${LIMITS.labelNameMax} characters.`);
  return ok(name);
}

/** A task's labels (`labelIds`): repeats dropped, at most 10 (whether they are its board's, the server checks). */
export function checkLabelIds(ids: readonly string[]): Checked<string[]> {
  const distinct = [...new Set(ids)];
  return distinct.length > LIMITS.labelsPerTask ? fail(`A task can have at most ${LIMITS.labelsPerTask} labels.`) : ok(distinct);
}

/** A board's description: plain text, trimmed; empty means none. */
export function checkBoardDescription(raw: string): Checked<string> {
  const text = raw.trim();
  return text.length > LIMITS.boardDescriptionMax
    ? fail(`Board description must be at most ${LIMITS.boardDescriptionMax} characters.`)
    : ok(text);
}
