import { message, text, type Message, type MessageValue, type Translatable } from './i18n.ts';

/**
 * Who may register on this server: anyone (`open`, the default), only addresses with an
 * invitation to a board (`invite`), or nobody (`closed`: accounts are made with the admin
 * command). `domains` (lower-case; empty: any) narrows `open` and `invite` to addresses at those
 * domains. The server decides (server/services/registration.ts); the sign-up page shows the
 * server's `message` before anyone types.
 */
export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface RegistrationPolicy {
  mode: RegistrationMode;
  domains: readonly string[];
}

/** "a.com", "a.com and b.org", "a.com, b.org and c.net": the domains as one value of a message. */
function listed(domains: readonly string[]): MessageValue {
  const last = domains.at(-1) ?? '';
  if (domains.length <= 1) return last;
  // i18n: The last two of a list of domains ("a.com and b.org").
  const end = message('{first} and {last}', { first: domains.at(-2) ?? '', last });
  // i18n: A domain before the rest of a list of domains ("a.com, b.org and c.net").
  return domains.slice(0, -2).reduceRight<Message>((rest, domain) => message('{first}, {rest}', { first: domain, rest }), end);
}

/** What a refused sign-up is told, and what the sign-up page says: null when anyone may register. */
export function registrationMessage({ mode, domains }: RegistrationPolicy): Translatable | null {
  if (mode === 'closed') return text('Sign-up on this server is closed.');
  if (mode === 'invite') {
    return domains.length === 0
      ? text('Sign-up on this server is by invitation.')
      : message('Sign-up on this server is by invitation, for addresses at {domains} only.', { domains: listed(domains) });
  }
  return domains.length === 0 ? null : message('Sign-up on this server is open to addresses at {domains} only.', { domains: listed(domains) });
}

/** Whether `email` (lower-cased) is at one of `domains` (any when there are none). */
export function atAllowedDomain(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return domains.includes(domain);
}
