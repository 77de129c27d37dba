import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials.ts';

describe('initialsOf', () => {
  it('takes the first and last word of a full name', () => {
    expect(initialsOf({ fullName: 'Ada Lovelace', email: 'x@example.com' })).toBe('AL');
    expect(initialsOf({ fullName: '  grace  brewster murray hopper ', email: 'x@example.com' })).toBe('GH');
    expect(initialsOf({ fullName: 'Cher', email: 'x@example.com' })).toBe('C');
    expect(initialsOf({ fullName: '山田 太郎', email: 'x@example.com' })).toBe('山太');
    expect(initialsOf({ fullName: '𠮷野 家', email: 'x@example.com' })).toBe('𠮷家');
  });

  it('falls back to the address’s parts without a name', () => {
    expect(initialsOf({ fullName: null, email: 'ada.lovelace@example.com' })).toBe('AL');
    expect(initialsOf({ email: 'bob@example.com' })).toBe('B');
    expect(initialsOf({ fullName: '   ', email: 'mary-jane_watson+work@example.com' })).toBe('MJ');
  });
});
