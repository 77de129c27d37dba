import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

describe('sign-in return path: no open redirect (ASVS 5.1.5)', () => {
  const BASE = 'https://tasks.example.com';
  const isSameOriginPath = (path: string) =>
    path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && new URL(path, BASE).origin === BASE;

  it.each([
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example',
    'HTTPS://evil.example',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/.//evil.example',
    '/%2e//evil.example',
    '/a/..//evil.example',
    '/..//evil.example',
    '/./\\evil.example',
    '/%5c%5cevil.example',
    '/%2f%2fevil.example',
  ])('%j stays on our origin', (raw) => {
    const path = safeReturnPath(raw);
    expect(isSameOriginPath(path), `${JSON.stringify(raw)} → ${JSON.stringify(path)}`).toBe(true);
  });

  it('any string gives a same-origin path (fast-check)', () => {
    const piece = fc.constantFrom('/', '//', '\\', '.', '..', '%2e', '%2f', '%5c', 'evil.example', 'http:', ':', '@', '?', '#', '\t', '\n', ' ', 'tasks');
    const raw = fc.oneof(
      fc.array(piece, { maxLength: 6 }).map((p) => `/${p.join('')}`),
      fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
      fc.string({ unit: 'binary-ascii', maxLength: 30 }),
    );
    fc.assert(
      fc.property(raw, (input) => {
        const path = safeReturnPath(input);
        expect(isSameOriginPath(path), `${JSON.stringify(input)} → ${JSON.stringify(path)}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
