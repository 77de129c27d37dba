import { describe, expect, it } from 'vitest';
import { checkDeadline, checkFullName, checkOtp, checkPassword, checkTaskTitle, checkWorkTitle } from './validation.ts';

const now = new Date('2026-05-01T12:30:45.000Z');

describe('checkDeadline', () => {
  it('treats empty, null and absent as no deadline', () => {
    expect(checkDeadline('', now)).toEqual({ ok: true, value: null });
    expect(checkDeadline(null, now)).toEqual({ ok: true, value: null });
    expect(checkDeadline(undefined, now)).toEqual({ ok: true, value: null });
  });

  it('reads a value without offset as UTC', () => {
    expect(checkDeadline('2026-05-02T08:00', now)).toEqual({ ok: true, value: new Date('2026-05-02T08:00:00Z') });
  });

  it('honours an explicit offset', () => {
    expect(checkDeadline('2026-05-02T08:00:00+02:00', now)).toEqual({
      ok: true,
      value: new Date('2026-05-02T06:00:00Z'),
    });
  });

  it('accepts the current minute and refuses the minute before', () => {
    expect(checkDeadline('2026-05-01T12:30:00Z', now).ok).toBe(true);
    expect(checkDeadline('2026-05-01T12:29:59Z', now)).toEqual({ ok: false, message: 'Deadline cannot be in the past.' });
  });

  it.each(['tomorrow', '2026-13-45T99:99', '2026-05-02', '2026-02-30T10:00Z'])('refuses %j', (raw) => {
    expect(checkDeadline(raw, now).ok).toBe(false);
  });
});

describe('field checks', () => {
  it('trims titles and names', () => {
    expect(checkTaskTitle('  Ship it  ')).toEqual({ ok: true, value: 'Ship it' });
    expect(checkFullName('  Ada Lovelace ')).toEqual({ ok: true, value: 'Ada Lovelace' });
    expect(checkWorkTitle(null)).toEqual({ ok: true, value: '' });
  });

  it('refuses short, long and blank values', () => {
    expect(checkTaskTitle('  ab ').ok).toBe(false);
    expect(checkTaskTitle('x'.repeat(201)).ok).toBe(false);
    expect(checkFullName('   ').ok).toBe(false);
    expect(checkFullName('x'.repeat(101)).ok).toBe(false);
    expect(checkWorkTitle('x'.repeat(101)).ok).toBe(false);
  });

  it('applies the password rules of NIST 800-63B', () => {
    expect(checkPassword('short', 'a@b.co').ok).toBe(false);
    expect(checkPassword('x'.repeat(129), 'a@b.co').ok).toBe(false);
    expect(checkPassword('Ada@Example.com', 'ada@example.com').ok).toBe(false);
    expect(checkPassword('correct horse', 'ada@example.com').ok).toBe(true);
  });

  it('accepts only six digits as a code', () => {
    expect(checkOtp(' 012345 ')).toEqual({ ok: true, value: '012345' });
    expect(checkOtp('12345').ok).toBe(false);
    expect(checkOtp('12345a').ok).toBe(false);
  });
});
