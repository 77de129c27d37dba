import type { RepeatUnit } from './constants.ts';
import type { Repeat } from './schemas/tasks.ts';

/**
 * The date arithmetic of repeating tasks, shared by the server (which computes the next
 * occurrence) and the web app (which may show it). Everything is in UTC: only the `getUTC*`
 * reads and `Date.UTC` are used, so the answer never depends on the time zone of the process or
 * of the person looking at it.
 */

const DAY_MS = 86_400_000;
const DAYS_PER_UNIT: Partial<Record<RepeatUnit, number>> = { day: 1, week: 7 };
const MONTHS_PER_UNIT: Partial<Record<RepeatUnit, number>> = { month: 1, year: 12 };

/** Days in month `month` (0-based, may run past 11) of `year`, in UTC. */
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * `date` moved `months` calendar months on, keeping its day of the month (clamped to the target
 * month's last day: 31 January + 1 month = 28 or 29 February) and its time of day, in UTC.
 */
function addMonths(date: Date, months: number): Date {
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const result = new Date(Date.UTC(2000, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
  // setUTCFullYear, not Date.UTC(year, …): Date.UTC reads years 0–99 as 1900–1999.
  result.setUTCFullYear(year, month, day);
  return result;
}

/**
 * The deadline of a repeating task's next occurrence: `deadline` advanced by whole intervals of
 * `repeat` until it is strictly after `now`, at least one interval (a task completed before its
 * deadline repeats one interval later, not on the same day). Days and weeks add exact 24-hour
 * days; months and years keep the day of the month, clamped to the month's end, and the time of
 * day, in UTC. Every candidate is counted from `deadline` itself, never from a clamped
 * intermediate date, so 31 January advanced over three months is 30 April, not 28 April. The
 * number of intervals is computed, not looped, so a deadline years in the past costs the same.
 * (docs/decisions/060-repeat-month-ends-from-the-current-deadline.md.)
 */
export function nextDeadline(deadline: string, repeat: Repeat, now: Date): string {
  const start = new Date(deadline);
  const from = start.getTime();
  const nowMs = now.getTime();
  if (Number.isNaN(from) || Number.isNaN(nowMs)) throw new RangeError('nextDeadline needs a valid deadline and now');
  const days = DAYS_PER_UNIT[repeat.unit];
  if (days !== undefined) {
    const step = repeat.every * days * DAY_MS;
    // The smallest k ≥ 1 with from + k·step > now.
    const k = Math.max(1, Math.floor((nowMs - from) / step) + 1);
    return new Date(from + k * step).toISOString();
  }
  const step = repeat.every * (MONTHS_PER_UNIT[repeat.unit] ?? 1);
  const monthsApart = (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + (now.getUTCMonth() - start.getUTCMonth());
  // A first guess from the calendar months between them, then at most a step or two either way
  // (the day of the month and the time of day decide the last one).
  let k = Math.max(1, Math.floor(monthsApart / step));
  while (k > 1 && addMonths(start, (k - 1) * step).getTime() > nowMs) k -= 1;
  while (addMonths(start, k * step).getTime() <= nowMs) k += 1;
  return addMonths(start, k * step).toISOString();
}

const UNIT_NAMES: Record<RepeatUnit, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

/** How people read an interval: "Every day", "Every 2 weeks", "Every month", "Every 3 years". */
export function describeRepeat(repeat: Repeat): string {
  const unit = UNIT_NAMES[repeat.unit];
  return repeat.every === 1 ? `Every ${unit}` : `Every ${repeat.every} ${unit}s`;
}

/** Two intervals are the same (null: no repeat). */
export function sameRepeat(a: Repeat | null, b: Repeat | null): boolean {
  return a === null || b === null ? a === b : a.every === b.every && a.unit === b.unit;
}
