import { describe, expect, it } from 'vitest';
import { createSecretBox, stepOfCode, totpOf } from '../services/two-step.ts';

/** RFC 6238 Appendix B: the SHA-1 secret is the ASCII text "12345678901234567890". */
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
/** Base32 (RFC 4648) of the secret, as an authenticator app is given it. */
const RFC_SECRET_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1)', () => {
  it('the secret and its base32 agree', () => {
    expect(Buffer.from(RFC_SECRET).toString('ascii')).toBe('12345678901234567890');
    expect(totpOf(RFC_SECRET_BASE32).secret.bytes).toEqual(new Uint8Array(RFC_SECRET));
  });

  it.each(VECTORS)('at %i s the 8-digit code is %s', (seconds, code) => {
    expect(totpOf(RFC_SECRET_BASE32, '', 8).generate({ timestamp: seconds * 1000 })).toBe(code);
  });

  it.each(VECTORS)('at %i s the product accepts the 6-digit code (the last 6 of %s) as that time step', (seconds, code) => {
    const step = Math.floor(seconds / 30);
    expect(stepOfCode(RFC_SECRET_BASE32, code.slice(2), seconds * 1000)).toBe(step);
    // One step of drift either side is accepted, two are not.
    expect(stepOfCode(RFC_SECRET_BASE32, code.slice(2), (seconds + 30) * 1000)).toBe(step);
    expect(stepOfCode(RFC_SECRET_BASE32, code.slice(2), (seconds + 90) * 1000)).toBeNull();
    expect(stepOfCode(RFC_SECRET_BASE32, code, seconds * 1000)).toBeNull();
  });
});

describe('secrets at rest', () => {
  it('open what they sealed, and nothing sealed under another key or altered', () => {
    const box = createSecretBox('one secret one secret one secret 0123');
    const sealed = box.seal(RFC_SECRET_BASE32);
    expect(sealed).not.toContain(RFC_SECRET_BASE32);
    expect(box.seal(RFC_SECRET_BASE32)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(RFC_SECRET_BASE32);
    expect(createSecretBox('another secret another secret another 0').open(sealed)).toBeNull();
    const parts = sealed.split('.');
    const body = parts[3] ?? '';
    const flipped = [...parts.slice(0, 3), `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`].join('.');
    expect(box.open(flipped)).toBeNull();
  });
});
