import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it.each([
    ['/tasks', '/tasks'],
    ['/tasks?priority=high', '/tasks?priority=high'],
    ['/a/../tasks', '/tasks'],
  ])('keeps the same-origin path %j', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });

  it.each([
    null,
    '',
    'tasks',
    '//evil.example',
    '/\\evil.example',
    '/\tevil',
    'https://evil.example/',
    'javascript:alert(1)',
    '/%0a//evil.example'.replace('%0a', '\n'),
    '/.//evil.example',
    '/%2e//evil.example',
    '/a/..//evil.example',
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBe('/');
  });
});

describe('loginPathFor', () => {
  it('adds ?next= except for home', () => {
    expect(loginPathFor('/tasks')).toBe('/login?next=%2Ftasks');
    expect(loginPathFor('/')).toBe('/login');
  });
});
