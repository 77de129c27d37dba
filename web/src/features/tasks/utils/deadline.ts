import { dateTimeFormat } from '#web/lib/locale-format.ts';

/**
 * Deadlines travel as ISO 8601 instants in UTC; people see them in their language (with the
 * account's clock) and their device's time zone (lib/locale-format.ts), with a relative hint.
 * A `datetime-local` input works in local wall-clock time, so these helpers convert between the
 * two.
 */

const DAY = 24 * 60 * 60_000;

/** The year only when it is not this year (dateTimeFormat makes and caches each format per language). */
const SAME_YEAR: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' };
const OTHER_YEAR: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' };
/** Both short forms, for a test that measures the longest in every language. */
export const SHORT_DEADLINE_FORMATS: readonly Intl.DateTimeFormatOptions[] = [SAME_YEAR, OTHER_YEAR];
const FULL: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'long' };

/** "Tue, Nov 24, 3:00 PM" (the year only when it is not this year), in the viewer's zone. */
export function formatDeadline(date: Date, now: Date): string {
  return dateTimeFormat(date.getFullYear() === now.getFullYear() ? SAME_YEAR : OTHER_YEAR).format(date);
}

/** The unabridged form, for a tooltip. */
export function formatDeadlineFull(date: Date): string {
  return dateTimeFormat(FULL).format(date);
}

export { formatRelative } from '#web/lib/relative-time.ts';

export type DeadlineState = 'none' | 'overdue' | 'soon' | 'later' | 'done';

/** Overdue: still to do and past the deadline. Soon: due within a day. */
export function deadlineState(deadline: Date | null, done: boolean, now: Date): DeadlineState {
  if (!deadline) return 'none';
  if (done) return 'done';
  const left = deadline.getTime() - now.getTime();
  if (left < 0) return 'overdue';
  return left < DAY ? 'soon' : 'later';
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local wall-clock value for `<input type="datetime-local">`, to the minute. */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value, read in the viewer's time zone, as an ISO instant in UTC.
 * `null` for an empty or malformed value.
 */
export function dateTimeLocalToIso(value: string): string | null {
  const match = LOCAL_RE.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
