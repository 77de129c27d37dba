import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayKeyOf,
  daysBetween,
  defaultDueOn,
  localeWeekStart,
  monthGrid,
  moveToDay,
  shiftByDays,
  shiftTimeline,
  timelineRange,
  weekDays,
  zonedInstant,
} from './calendar-dates.ts';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';

describe('dayKeyOf', () => {
  it('is the day a clock in the zone shows, not the UTC day', () => {
    expect(dayKeyOf('2026-03-10T23:30:00.000Z', 'UTC')).toBe('2026-03-10');
    expect(dayKeyOf('2026-03-10T23:30:00.000Z', BERLIN)).toBe('2026-03-11');
    expect(dayKeyOf('2026-03-11T03:30:00.000Z', NEW_YORK)).toBe('2026-03-10');
    expect(dayKeyOf('2026-03-11T00:00:00.000Z', 'Pacific/Kiritimati')).toBe('2026-03-11');
  });
});

describe('day arithmetic', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(daysBetween('2026-04-01', '2026-03-01')).toBe(-31);
  });

  it('adds months, keeping the day or taking the shorter month’s last', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
  });
});

describe('weeks and month grids', () => {
  it('starts a week on Monday or on Sunday', () => {
    // 2026-03-11 is a Wednesday.
    expect(weekDays('2026-03-11', 1)).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
    expect(weekDays('2026-03-11', 0)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14']);
    // A Sunday is the last day of a Monday week and the first of a Sunday week.
    expect(weekDays('2026-03-15', 1)[0]).toBe('2026-03-09');
    expect(weekDays('2026-03-15', 0)[0]).toBe('2026-03-15');
  });

  it('covers a month with whole weeks from the week start', () => {
    // March 2026: Sunday the 1st to Tuesday the 31st.
    const monday = monthGrid('2026-03-20', 1);
    expect(monday).toHaveLength(6);
    expect(monday[0]?.[0]).toBe('2026-02-23');
    expect(monday[0]?.[6]).toBe('2026-03-01');
    expect(monday.at(-1)?.[6]).toBe('2026-04-05');
    const sunday = monthGrid('2026-03-20', 0);
    expect(sunday).toHaveLength(5);
    expect(sunday[0]?.[0]).toBe('2026-03-01');
    expect(sunday.at(-1)?.[6]).toBe('2026-04-04');
    for (const week of [...monday, ...sunday]) expect(week).toHaveLength(7);
    // February 2026 starts on a Sunday: exactly four Sunday weeks.
    expect(monthGrid('2026-02-01', 0)).toHaveLength(4);
  });

  it('reads the locale’s week start, Monday when it says none', () => {
    expect(localeWeekStart('en-GB')).toBe(1);
    expect([0, 1]).toContain(localeWeekStart('en-US'));
    expect(localeWeekStart('not a locale')).toBe(1);
  });
});

describe('zonedInstant', () => {
  it('reads a wall-clock time in the zone', () => {
    expect(new Date(zonedInstant('2026-03-10', 17, 0, 0, 0, BERLIN)).toISOString()).toBe('2026-03-10T16:00:00.000Z');
    expect(new Date(zonedInstant('2026-07-10', 17, 0, 0, 0, BERLIN)).toISOString()).toBe('2026-07-10T15:00:00.000Z');
    expect(new Date(zonedInstant('2026-07-10', 17, 0, 0, 0, 'UTC')).toISOString()).toBe('2026-07-10T17:00:00.000Z');
  });

  it('carries a skipped time past the gap and takes the first of a repeated one', () => {
    // Berlin, 29 March 2026: 02:00 becomes 03:00, so 02:30 does not exist.
    expect(new Date(zonedInstant('2026-03-29', 2, 30, 0, 0, BERLIN)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // Berlin, 25 October 2026: 03:00 becomes 02:00, so 02:30 happens twice (first in summer time).
    expect(new Date(zonedInstant('2026-10-25', 2, 30, 0, 0, BERLIN)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('moveToDay and shiftByDays', () => {
  it('keeps the local time of day across the change to summer time', () => {
    // Friday 27 March 2026, 09:30 in Berlin (winter time, UTC+1) to Monday 30 March (summer time, UTC+2).
    const moved = moveToDay('2026-03-27T08:30:00.000Z', '2026-03-30', BERLIN);
    expect(moved).toBe('2026-03-30T07:30:00.000Z');
    expect(dayKeyOf(moved, BERLIN)).toBe('2026-03-30');
  });

  it('keeps the local time of day across the change back, in another zone', () => {
    // New York changes back on 1 November 2026: 18:00 EDT (22:00Z) moved a day on is 18:00 EST (23:00Z).
    expect(moveToDay('2026-10-31T22:00:00.000Z', '2026-11-01', NEW_YORK)).toBe('2026-11-01T23:00:00.000Z');
    expect(shiftByDays('2026-11-01T23:00:00.000Z', -1, NEW_YORK)).toBe('2026-10-31T22:00:00.000Z');
  });

  it('keeps seconds and milliseconds, and a late-evening time stays on its local day', () => {
    // 23:45:10.5 on 10 March in New York is 03:45Z on the 11th.
    const moved = shiftByDays('2026-03-11T03:45:10.500Z', 7, NEW_YORK);
    expect(dayKeyOf(moved, NEW_YORK)).toBe('2026-03-17');
    expect(moved).toBe('2026-03-18T03:45:10.500Z');
  });

  it('gives a dropped task 17:00 local time', () => {
    expect(defaultDueOn('2026-03-27', BERLIN)).toBe('2026-03-27T16:00:00.000Z');
    expect(defaultDueOn('2026-03-30', BERLIN)).toBe('2026-03-30T15:00:00.000Z');
  });
});

describe('timelineRange', () => {
  it('shows fourteen days from the week start at day zoom', () => {
    const range = timelineRange('2026-03-11', 'day', 1);
    expect(range.start).toBe('2026-03-09');
    expect(range.days).toBe(14);
    expect(range.units).toHaveLength(14);
    expect(timelineRange('2026-03-11', 'day', 0).start).toBe('2026-03-08');
  });

  it('shows eight weeks at week zoom and six months at month zoom', () => {
    const weeks = timelineRange('2026-03-11', 'week', 0);
    expect(weeks.start).toBe('2026-03-08');
    expect(weeks.days).toBe(56);
    expect(weeks.units.map((u) => u.days)).toEqual([7, 7, 7, 7, 7, 7, 7, 7]);
    const months = timelineRange('2026-01-20', 'month', 1);
    expect(months.start).toBe('2026-01-01');
    expect(months.units.map((u) => u.days)).toEqual([31, 28, 31, 30, 31, 30]);
    expect(months.days).toBe(181);
  });

  it('moves by a week, four weeks or three months', () => {
    expect(shiftTimeline('2026-03-11', 'day', 1)).toBe('2026-03-18');
    expect(shiftTimeline('2026-03-11', 'week', -1)).toBe('2026-02-11');
    expect(shiftTimeline('2026-03-31', 'month', 1)).toBe('2026-06-30');
  });
});
