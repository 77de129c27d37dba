/*
 * Calendar arithmetic for the calendar and timeline views: days as the viewer sees them in a time
 * zone, grids of weeks and ranges of a timeline. Instants travel as ISO 8601 in UTC; a day is a
 * key "YYYY-MM-DD" of the viewer's calendar, and day keys are counted with UTC dates (a calendar
 * day, with no zone and no daylight saving), so only the step from a key to an instant and back
 * needs the time zone. Only Intl: no Node and no DOM.
 */

/** A day of the viewer's calendar: "YYYY-MM-DD". */
export type DayKey = string;
/** The day a week starts on, as Date#getDay counts: 0 Sunday, 1 Monday … 6 Saturday. */
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export type TimelineZoom = 'day' | 'week' | 'month';

/** A task dropped on a day without having had a deadline is due that day at 17:00, local time: the end of a working day. */
export const DEFAULT_DUE_HOUR = 17;

const DAY_MS = 86_400_000;

/** The viewer's time zone (the device's), e.g. "Europe/Berlin". */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

interface WeekInfo {
  firstDay?: number;
}
type LocaleWithWeek = Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };

/**
 * The first day of the week in the viewer's locale (Intl.Locale week info: 1 Monday … 7 Sunday),
 * Monday where the engine does not say. Nobody sets a week start of their own yet: this is the
 * one place that decides it.
 */
export function localeWeekStart(locale?: string): WeekStart {
  try {
    const tag = locale ?? new Intl.DateTimeFormat().resolvedOptions().locale;
    const intlLocale = new Intl.Locale(tag) as LocaleWithWeek;
    const info = typeof intlLocale.getWeekInfo === 'function' ? intlLocale.getWeekInfo() : intlLocale.weekInfo;
    const first = info?.firstDay;
    if (typeof first === 'number' && first >= 1 && first <= 7) return (first % 7) as WeekStart;
  } catch {
    // An engine without Intl.Locale, or a tag it cannot read: Monday, below.
  }
  return 1;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();
function partFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock in `timeZone` shows at `instant` (ms since the epoch). */
function wallClock(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of partFormat(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

/** The zone's offset from UTC at `instant`, in ms (whole seconds). */
function offsetAt(instant: number, timeZone: string): number {
  const c = wallClock(instant, timeZone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(instant / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function keyFromUtc(ms: number): DayKey {
  const date = new Date(ms);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** A day key as midnight UTC of that calendar day (for counting days, never shown). */
function utcOf(key: DayKey): number {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** The day `instant` (an ISO string or ms) falls on in `timeZone`. */
export function dayKeyOf(instant: string | number, timeZone: string): DayKey {
  const c = wallClock(typeof instant === 'string' ? Date.parse(instant) : instant, timeZone);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
}

/** The day `n` days after `key` (before, when negative). */
export function addDays(key: DayKey, n: number): DayKey {
  return keyFromUtc(utcOf(key) + n * DAY_MS);
}

/** Days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: DayKey, b: DayKey): number {
  return Math.round((utcOf(b) - utcOf(a)) / DAY_MS);
}

/** The day of the week of `key`, as Date#getDay counts (0 Sunday). */
export function weekdayOf(key: DayKey): number {
  return new Date(utcOf(key)).getUTCDay();
}

/** The first day of `key`'s week. */
export function startOfWeek(key: DayKey, weekStart: WeekStart): DayKey {
  return addDays(key, -((weekdayOf(key) - weekStart + 7) % 7));
}

/** The first day of `key`'s month. */
export function startOfMonth(key: DayKey): DayKey {
  return `${key.slice(0, 7)}-01`;
}

/** The same day `n` months on, or that month's last day when it is shorter (31 Jan + 1 → 28/29 Feb). */
export function addMonths(key: DayKey, n: number): DayKey {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return keyFromUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last)));
}

/** The seven days of `key`'s week, from `weekStart`. */
export function weekDays(key: DayKey, weekStart: WeekStart): DayKey[] {
  const first = startOfWeek(key, weekStart);
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/**
 * The weeks shown for `key`'s month: each seven days from `weekStart`, from the week holding the
 * month's first day to the week holding its last (4 to 6 weeks, with days of the months around).
 */
export function monthGrid(key: DayKey, weekStart: WeekStart): DayKey[][] {
  const first = startOfMonth(key);
  const last = addDays(addMonths(first, 1), -1);
  const weeks: DayKey[][] = [];
  for (let start = startOfWeek(first, weekStart); daysBetween(start, last) >= 0; start = addDays(start, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(start, i)));
  }
  return weeks;
}

/**
 * The instant a clock in `timeZone` shows `hour:minute:second.ms` on day `key`. A time that does
 * not exist (skipped when clocks go forward) is read as the same length of time after the gap
 * (02:30 on a day that jumps from 02:00 to 03:00 is 03:30); a time that happens twice (clocks go
 * back) is its first occurrence. Temporal calls this disambiguation "compatible".
 */
export function zonedInstant(key: DayKey, hour: number, minute: number, second: number, ms: number, timeZone: string): number {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(y, m - 1, d, hour, minute, second, ms);
  // A zone changes its offset at most once within a day or so: the offsets a day before and a
  // day after are the only candidates.
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  const shows = (instant: number) => offsetAt(instant, timeZone) === asUtc - instant;
  const candidates = [asUtc - before, asUtc - after].filter(shows);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the offset from before the change carries the wall-clock time past it.
  return asUtc - before;
}

/**
 * `instant` moved to day `key`, keeping the time of day a clock in `timeZone` showed (a task due
 * Tuesday 09:30 dragged to Friday is due Friday 09:30, across a change to or from summer time).
 */
export function moveToDay(instant: string, key: DayKey, timeZone: string): string {
  const ms = Date.parse(instant);
  const c = wallClock(ms, timeZone);
  return new Date(zonedInstant(key, c.hour, c.minute, c.second, ((ms % 1000) + 1000) % 1000, timeZone)).toISOString();
}

/** `instant` moved by `n` whole days of the viewer's calendar, keeping its local time of day. */
export function shiftByDays(instant: string, n: number, timeZone: string): string {
  return moveToDay(instant, addDays(dayKeyOf(instant, timeZone), n), timeZone);
}

/** Day `key` at DEFAULT_DUE_HOUR in `timeZone`: the deadline a task without one gets by being dropped on a day. */
export function defaultDueOn(key: DayKey, timeZone: string): string {
  return new Date(zonedInstant(key, DEFAULT_DUE_HOUR, 0, 0, 0, timeZone)).toISOString();
}

/** One heading cell of a timeline: a day, a week or a month, `days` long from `start`. */
export interface TimelineUnit {
  start: DayKey;
  days: number;
}
export interface TimelineRange {
  /** The first day shown. */
  start: DayKey;
  /** Days shown, from `start`. */
  days: number;
  units: TimelineUnit[];
}

/** How much a timeline shows at each zoom: 14 days, 8 weeks or 6 months. */
const TIMELINE_UNITS: Record<TimelineZoom, number> = { day: 14, week: 8, month: 6 };

/** The timeline's range holding `anchor`: from the start of its week (day and week zoom) or of its month. */
export function timelineRange(anchor: DayKey, zoom: TimelineZoom, weekStart: WeekStart): TimelineRange {
  const count = TIMELINE_UNITS[zoom];
  const units: TimelineUnit[] = [];
  if (zoom === 'month') {
    let month = startOfMonth(anchor);
    for (let i = 0; i < count; i++) {
      const next = addMonths(month, 1);
      units.push({ start: month, days: daysBetween(month, next) });
      month = next;
    }
  } else {
    const first = startOfWeek(anchor, weekStart);
    const size = zoom === 'day' ? 1 : 7;
    for (let i = 0; i < count; i++) units.push({ start: addDays(first, i * size), days: size });
  }
  const start = units[0]?.start ?? anchor;
  return { start, days: units.reduce((sum, unit) => sum + unit.days, 0), units };
}

/** The anchor Previous (`-1`) or Next (`1`) goes to: a week at day zoom, four weeks at week zoom, three months at month zoom. */
export function shiftTimeline(anchor: DayKey, zoom: TimelineZoom, direction: -1 | 1): DayKey {
  if (zoom === 'month') return addMonths(anchor, 3 * direction);
  return addDays(anchor, (zoom === 'day' ? 7 : 28) * direction);
}
