import { createHmac, timingSafeEqual } from 'node:crypto';

/** The optional kinds of mail a person can turn off; codes and password resets are not among them. */
export const MAIL_KINDS = ['assigned', 'reminders', 'boards', 'mentions'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * One-click unsubscribe tokens (RFC 8058): `<address, base64url>.<kind>.<HMAC-SHA256>`, keyed
 * with SESSION_SECRET over a purpose label, the kind and the address. Without the key no token
 * can be made up, and changing the address or the kind breaks the signature, so a token only
 * ever turns off that one kind of mail for that one address. It carries no expiry: an old
 * mail's link must keep working, and all it can do is what its owner asked for.
 */
export function signUnsubscribeToken(secret: string, email: string, kind: MailKind): string {
  return `${Buffer.from(email, 'utf8').toString('base64url')}.${kind}.${mac(secret, email, kind)}`;
}

export function verifyUnsubscribeToken(secret: string, token: string): { email: string; kind: MailKind } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [encoded = '', kind = '', signature = ''] = parts;
  if (!(MAIL_KINDS as readonly string[]).includes(kind) || !/^[A-Za-z0-9_-]{1,400}$/.test(encoded)) return null;
  const email = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = Buffer.from(mac(secret, email, kind as MailKind));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { email, kind: kind as MailKind };
}

function mac(secret: string, email: string, kind: MailKind): string {
  return createHmac('sha256', secret).update(`unsubscribe\n${kind}\n${email}`).digest('base64url');
}

/**
 * An optional mail's way out: the link for its footer and the RFC 8058 headers that let a mail
 * client turn that kind of mail off for the address in one click.
 */
export function unsubscribeFor(appOrigin: string, secret: string, email: string, kind: MailKind) {
  const token = signUnsubscribeToken(secret, email, kind);
  return {
    url: `${appOrigin}/unsubscribe?token=${token}`,
    headers: {
      'List-Unsubscribe': `<${appOrigin}/api/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
