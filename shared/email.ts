import { LIMITS } from './constants.ts';

/**
 * Pragmatic e-mail check: one @, a non-empty local part without spaces, a dotted domain of
 * letters, digits and hyphens. Deliberately stricter than RFC 5322 (no quoted local parts, no
 * IP literals) because the address also goes into a mail header.
 */
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Trim and lower-case, before any use or storage: one address, one account. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** True when the already-normalized address is acceptable. */
export function isValidEmail(email: string): boolean {
  return email.length > 0 && email.length <= LIMITS.emailMax && EMAIL_RE.test(email);
}
