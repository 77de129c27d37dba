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

/** "a.com", "a.com and b.org", "a.com, b.org and c.net". */
function listed(domains: readonly string[]): string {
  if (domains.length <= 1) return domains.join('');
  return `${domains.slice(0, -1).join(', ')} and ${domains.at(-1) ?? ''}`;
}

/** What a refused sign-up is told, and what the sign-up page says: null when anyone may register. */
export function registrationMessage({ mode, domains }: RegistrationPolicy): string | null {
  if (mode === 'closed') return 'Sign-up on this server is closed.';
  if (mode === 'invite') return domains.length === 0 ? 'Sign-up on this server is by invitation.' : `Sign-up on this server is by invitation, for addresses at ${listed(domains)} only.`;
  return domains.length === 0 ? null : `Sign-up on this server is open to addresses at ${listed(domains)} only.`;
}

/** Whether `email` (lower-cased) is at one of `domains` (any when there are none). */
export function atAllowedDomain(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return domains.includes(domain);
}
