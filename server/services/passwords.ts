import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the library defaults (m=19 MiB, t=2, p=1: OWASP's first recommendation).
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * The stored hash of an account without a password (made through a sign-in provider, or
 * deleted): no password verifies against it, so such an account cannot sign in with one until
 * a password reset sets one.
 */
export const NO_PASSWORD_HASH = '!';

/** Whether the stored hash is a password's (not NO_PASSWORD_HASH). */
export const hasPassword = (storedHash: string) => storedHash !== NO_PASSWORD_HASH;

let dummyHash: Promise<string> | undefined;

/** A hash of a random password, so an unknown e-mail costs one verification like a known one. */
export function warmDummyHash(): Promise<string> {
  dummyHash ??= hash(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** False for a wrong password, a malformed hash, no password (NO_PASSWORD_HASH), or no account (`storedHash` null). */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  // An account without a password costs the same work as a wrong password: its answer's timing tells nothing.
  const usable = storedHash !== null && hasPassword(storedHash);
  const target = usable ? storedHash : await warmDummyHash();
  let matches: boolean;
  try {
    matches = await verify(target, password);
  } catch {
    matches = false;
  }
  return usable && matches;
}
