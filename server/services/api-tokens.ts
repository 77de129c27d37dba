import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_POLICY } from '#shared/schemas/tokens.ts';

/**
 * Personal API tokens (docs/SECURITY.md, "API tokens"): `tw_` and 32 random bytes in base64url.
 * Only the secret's SHA-256 is stored: the secret has 256 random bits, so a fast hash is as
 * strong as a slow one here, and it lets a Bearer call find its token with one indexed read.
 */
const SECRET_RE = new RegExp(`^${TOKEN_POLICY.secretPrefix}[A-Za-z0-9_-]{43}$`);

export const newTokenSecret = (): string => `${TOKEN_POLICY.secretPrefix}${randomBytes(32).toString('base64url')}`;

export const hashTokenSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const isTokenSecret = (value: string): boolean => SECRET_RE.test(value);

/**
 * The credentials of an `Authorization: Bearer …` header (RFC 6750; the scheme name is
 * case-insensitive), '' for a Bearer header without any; undefined without a Bearer header.
 * Other schemes (a proxy's Basic credentials) are not ours and are ignored.
 */
export function bearerOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^bearer(?:[ \t]+(.*))?$/i.exec(authorization.trim());
  return match === null ? undefined : (match[1] ?? '').trim();
}
