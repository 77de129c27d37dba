/**
 * OIDC_PROVIDERS: the OpenID Connect providers people may sign in with, a JSON array of
 * `{id, name, issuer, clientId, clientSecret, scopes?}`. Parsed once at start-up; a bad value
 * stops the process with one line naming the variable (what config.ts does for every setting).
 */
export interface OidcProviderConfig {
  /** Lower-case letters, digits and dashes: the provider's part of the redirect URI, and how links are stored. */
  id: string;
  /** What the button says: "Sign in with <name>". */
  name: string;
  /** The issuer URL; its discovery document is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Always includes `openid`; `openid email profile` when not given. */
  scopes: string[];
}

export class OidcConfigError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'OidcConfigError';
  }
}

const ID_RE = /^[a-z0-9][a-z0-9-]{0,31}$/;
const SCOPE_RE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** Loopback hosts: the only ones an issuer may be reached at over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function text(entry: Record<string, unknown>, field: string, at: string, max = 2000): string {
  const value = entry[field];
  if (typeof value !== 'string' || value.trim() === '') throw new OidcConfigError(`${at}.${field} must be a non-empty string.`);
  if (value.length > max) throw new OidcConfigError(`${at}.${field} must be at most ${max} characters.`);
  return value.trim();
}

function issuerOf(raw: string, at: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OidcConfigError(`${at}.issuer is not a URL (got "${raw}").`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new OidcConfigError(`${at}.issuer must be https (plain http only on a loopback address such as 127.0.0.1) (got "${raw}").`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new OidcConfigError(`${at}.issuer must have no query, fragment or credentials (got "${raw}").`);
  }
  return raw;
}

function scopesOf(value: unknown, at: string): string[] {
  if (value === undefined) return DEFAULT_SCOPES;
  const list = typeof value === 'string' ? value.split(/\s+/).filter((s) => s !== '') : value;
  if (!Array.isArray(list) || list.some((s) => typeof s !== 'string' || !SCOPE_RE.test(s))) {
    throw new OidcConfigError(`${at}.scopes must be an array of scope names (or one space-separated string), e.g. ["openid","email","profile"].`);
  }
  const scopes = list as string[];
  return scopes.includes('openid') ? [...new Set(scopes)] : ['openid', ...new Set(scopes)];
}

/** The providers, or throws OidcConfigError saying what is wrong (the caller names the variable). */
export function parseOidcProviders(raw: string | undefined): OidcProviderConfig[] {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new OidcConfigError('is not valid JSON (expected an array of {id, name, issuer, clientId, clientSecret, scopes?}).');
  }
  if (!Array.isArray(parsed)) throw new OidcConfigError('must be a JSON array of {id, name, issuer, clientId, clientSecret, scopes?}.');
  const providers: OidcProviderConfig[] = [];
  parsed.forEach((entry: unknown, index) => {
    const at = `[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new OidcConfigError(`${at} must be an object.`);
    const record = entry as Record<string, unknown>;
    const id = text(record, 'id', at, 32);
    if (!ID_RE.test(id)) throw new OidcConfigError(`${at}.id must be lower-case letters, digits and dashes, at most 32 (got "${id}").`);
    if (providers.some((p) => p.id === id)) throw new OidcConfigError(`${at}.id "${id}" is used twice.`);
    providers.push({
      id,
      name: text(record, 'name', at, 60),
      issuer: issuerOf(text(record, 'issuer', at), at),
      clientId: text(record, 'clientId', at),
      clientSecret: text(record, 'clientSecret', at),
      scopes: scopesOf(record.scopes, at),
    });
  });
  return providers;
}
