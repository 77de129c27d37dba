import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS, REPEAT_UNITS } from './constants.ts';
import { describeRepeat, nextDeadline, sameRepeat } from './repeat.ts';
import type { Repeat } from './schemas/tasks.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

/**
 * An independent reading of the rule, the slow way: try k = 1, 2, … intervals, building each
 * candidate from the original deadline's calendar fields (months: day clamped to the target
 * month's length, which `Date.UTC(y, m + 1, 0)` gives). Only for deadlines a few years from now.
 */
function oracle(deadline: string, repeat: Repeat, now: Date): string {
  const d = new Date(deadline);
  for (let k = 1; ; k += 1) {
    let candidate: number;
    if (repeat.unit === 'day' || repeat.unit === 'week') {
      candidate = d.getTime() + k * repeat.every * (repeat.unit === 'day' ? 1 : 7) * DAY;
    } else {
      const months = k * repeat.every * (repeat.unit === 'year' ? 12 : 1);
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth() + months;
      const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      candidate = Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
    }
    if (candidate > now.getTime()) return new Date(candidate).toISOString();
  }
}

const repeatArb = fc.record({
  every: fc.integer({ min: LIMITS.repeatEveryMin, max: LIMITS.repeatEveryMax }),
  unit: fc.constantFrom(...REPEAT_UNITS),
});
// Instants from 1970 to 2200, month ends and leap days included by the generator's bias.
const instantArb = fc.date({ min: at('1970-01-01T00:00:00Z'), max: at('2200-12-31T23:59:59.999Z'), noInvalidDate: true });
/** Deadlines that land on the last days of months (28–31) more often than chance would. */
const monthEndArb = fc
  .record({ year: fc.integer({ min: 1970, max: 2200 }), month: fc.integer({ min: 0, max: 11 }), day: fc.integer({ min: 27, max: 31 }), ms: fc.integer({ min: 0, max: DAY - 1 }) })
  .map(({ year, month, day, ms }) => new Date(Date.UTC(year, month, Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate())) + ms));

const ZONES = ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'America/St_Johns'];
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('nextDeadline', () => {
  it('keeps the day of the month, clamped to the month end, counted from the deadline itself', () => {
    const month: Repeat = { every: 1, unit: 'month' };
    expect(nextDeadline('2024-01-31T09:30:00.000Z', month, at('2024-01-31T10:00:00Z'))).toBe('2024-02-29T09:30:00.000Z');
    expect(nextDeadline('2025-01-31T09:30:00.000Z', month, at('2025-02-01T00:00:00Z'))).toBe('2025-02-28T09:30:00.000Z');
    // Overdue by more than one interval: straight to the first occurrence after now, still from the 31st.
    expect(nextDeadline('2025-01-31T09:30:00.000Z', month, at('2025-04-10T00:00:00Z'))).toBe('2025-04-30T09:30:00.000Z');
    expect(nextDeadline('2025-01-31T09:30:00.000Z', month, at('2025-05-10T00:00:00Z'))).toBe('2025-05-31T09:30:00.000Z');
    // A clamped deadline is the next one's deadline: from 28 February it is the 28th (docs/decisions/060).
    expect(nextDeadline('2025-02-28T09:30:00.000Z', month, at('2025-03-01T00:00:00Z'))).toBe('2025-03-28T09:30:00.000Z');
    expect(nextDeadline('2024-02-29T12:00:00.000Z', { every: 1, unit: 'year' }, at('2024-03-01T00:00:00Z'))).toBe('2025-02-28T12:00:00.000Z');
    expect(nextDeadline('2024-02-29T12:00:00.000Z', { every: 4, unit: 'year' }, at('2024-03-01T00:00:00Z'))).toBe('2028-02-29T12:00:00.000Z');
    expect(nextDeadline('2023-11-30T23:59:59.999Z', { every: 3, unit: 'month' }, at('2023-12-01T00:00:00Z'))).toBe('2024-02-29T23:59:59.999Z');
  });

  it('moves at least one interval, even when the deadline is still ahead', () => {
    expect(nextDeadline('2030-06-15T08:00:00.000Z', { every: 1, unit: 'day' }, at('2026-01-01T00:00:00Z'))).toBe('2030-06-16T08:00:00.000Z');
    expect(nextDeadline('2030-06-15T08:00:00.000Z', { every: 2, unit: 'week' }, at('2026-01-01T00:00:00Z'))).toBe('2030-06-29T08:00:00.000Z');
  });

  it('lands strictly after now: a deadline that would fall exactly on now moves one more interval', () => {
    expect(nextDeadline('2026-01-01T08:00:00.000Z', { every: 1, unit: 'day' }, at('2026-01-03T08:00:00.000Z'))).toBe('2026-01-04T08:00:00.000Z');
    expect(nextDeadline('2026-01-31T08:00:00.000Z', { every: 1, unit: 'month' }, at('2026-03-31T08:00:00.000Z'))).toBe('2026-04-30T08:00:00.000Z');
  });

  it('jumps over a deadline centuries in the past without stepping through every interval', () => {
    expect(nextDeadline('1900-01-01T06:00:00.000Z', { every: 1, unit: 'day' }, at('2026-11-25T12:00:00Z'))).toBe('2026-11-26T06:00:00.000Z');
    expect(nextDeadline('0500-03-31T06:00:00.000Z', { every: 1, unit: 'month' }, at('2026-11-25T12:00:00Z'))).toBe('2026-11-30T06:00:00.000Z');
    expect(nextDeadline('0001-02-28T06:00:00.000Z', { every: 1, unit: 'year' }, at('2026-11-25T12:00:00Z'))).toBe('2027-02-28T06:00:00.000Z');
  });

  it('agrees with the slow reading of the rule for every interval and unit', () => {
    fc.assert(
      fc.property(fc.oneof(instantArb, monthEndArb), repeatArb, fc.integer({ min: -3 * 365, max: 20 * 365 }), fc.integer({ min: 0, max: DAY - 1 }), (deadline, repeat, days, ms) => {
        const now = new Date(deadline.getTime() + days * DAY + ms);
        expect(nextDeadline(deadline.toISOString(), repeat, now)).toBe(oracle(deadline.toISOString(), repeat, now));
      }),
      { numRuns: 3000 },
    );
  });

  it('is after now, keeps the time of day, and (months, years) the day of the month clamped to the month end', () => {
    fc.assert(
      fc.property(fc.oneof(instantArb, monthEndArb), repeatArb, instantArb, (deadline, repeat, now) => {
        const next = new Date(nextDeadline(deadline.toISOString(), repeat, now));
        expect(next.getTime()).toBeGreaterThan(Math.max(now.getTime(), deadline.getTime()));
        expect(next.getTime() % DAY).toBe(deadline.getTime() % DAY);
        if (repeat.unit === 'month' || repeat.unit === 'year') {
          const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
          expect(next.getUTCDate()).toBe(Math.min(deadline.getUTCDate(), lastDay));
          const months = (next.getUTCFullYear() - deadline.getUTCFullYear()) * 12 + next.getUTCMonth() - deadline.getUTCMonth();
          expect(months % (repeat.every * (repeat.unit === 'year' ? 12 : 1))).toBe(0);
        } else {
          expect((next.getTime() - deadline.getTime()) % (repeat.every * (repeat.unit === 'day' ? 1 : 7) * DAY)).toBe(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same UTC instant whatever the time zone of the process', () => {
    const cases = fc.sample(fc.tuple(fc.oneof(instantArb, monthEndArb), repeatArb, instantArb), { numRuns: 300, seed: 20261125 });
    vi.stubEnv('TZ', 'UTC');
    const inUtc = cases.map(([deadline, repeat, now]) => nextDeadline(deadline.toISOString(), repeat, now));
    for (const zone of ZONES) {
      // vi.stubEnv assigns process.env.TZ, which Node re-reads: the zone really is in effect.
      vi.stubEnv('TZ', zone);
      if (zone !== 'UTC') expect(new Date('2026-01-15T12:00:00Z').getHours() !== 12 || new Date('2026-07-15T12:00:00Z').getHours() !== 12).toBe(true);
      expect(cases.map(([deadline, repeat, now]) => nextDeadline(deadline.toISOString(), repeat, now))).toEqual(inUtc);
    }
  });
  // That the module calls no local-time Date method is checked on its source in server/test/repeat.test.ts (shared/ tests run without Node APIs).
});

describe('describeRepeat', () => {
  it('says the interval the way people do', () => {
    expect(describeRepeat({ every: 1, unit: 'day' })).toBe('Every day');
    expect(describeRepeat({ every: 2, unit: 'week' })).toBe('Every 2 weeks');
    expect(describeRepeat({ every: 1, unit: 'month' })).toBe('Every month');
    expect(describeRepeat({ every: 3, unit: 'year' })).toBe('Every 3 years');
    expect(describeRepeat({ every: 365, unit: 'day' })).toBe('Every 365 days');
  });

  it('tells intervals apart (sameRepeat)', () => {
    expect(sameRepeat(null, null)).toBe(true);
    expect(sameRepeat({ every: 1, unit: 'day' }, null)).toBe(false);
    expect(sameRepeat({ every: 1, unit: 'day' }, { every: 1, unit: 'day' })).toBe(true);
    expect(sameRepeat({ every: 1, unit: 'day' }, { every: 7, unit: 'day' })).toBe(false);
    expect(sameRepeat({ every: 1, unit: 'week' }, { every: 1, unit: 'day' })).toBe(false);
  });
});
