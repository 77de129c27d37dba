import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dateTimeLocalToIso, deadlineState, formatRelative, toDateTimeLocal } from './deadline.ts';

describe('datetime-local conversion', () => {
  beforeAll(() => {
    // Node re-reads TZ when it is assigned: the viewer is in India (UTC+5:30, no DST).
    vi.stubEnv('TZ', 'Asia/Kolkata');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('reads the local wall-clock value in the viewer’s zone and sends UTC', () => {
    expect(dateTimeLocalToIso('2030-01-15T09:30')).toBe('2030-01-15T04:00:00.000Z');
  });

  it('formats an instant back as the local wall-clock value', () => {
    expect(toDateTimeLocal(new Date('2030-01-15T04:00:00.000Z'))).toBe('2030-01-15T09:30');
  });

  it('returns null for an empty or malformed value', () => {
    expect(dateTimeLocalToIso('')).toBeNull();
    expect(dateTimeLocalToIso('tomorrow')).toBeNull();
  });
});

describe('relative hints', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  it.each([
    ['2030-06-04T12:00:00Z', 'in 3 days'],
    ['2030-06-01T10:00:00Z', '2 hours ago'],
    ['2030-06-01T12:20:00Z', 'in 20 minutes'],
    ['2030-06-01T12:00:10Z', 'now'],
    ['2030-08-01T12:00:00Z', 'in 2 months'],
  ])('%s → %s', (iso, text) => {
    expect(formatRelative(new Date(iso), now)).toBe(text);
  });

  it('marks overdue only for tasks still to do', () => {
    const past = new Date('2030-06-01T11:00:00Z');
    expect(deadlineState(past, false, now)).toBe('overdue');
    expect(deadlineState(past, true, now)).toBe('done');
    expect(deadlineState(new Date('2030-06-01T20:00:00Z'), false, now)).toBe('soon');
    expect(deadlineState(new Date('2030-06-09T20:00:00Z'), false, now)).toBe('later');
    expect(deadlineState(null, false, now)).toBe('none');
  });
});
