import * as client from 'openid-client';
import { isLoopbackHost, type OidcProviderConfig } from './provider-config.ts';

/**
 * The OpenID Connect relying party, on `openid-client` (a certified implementation): discovery
 * from the issuer, the authorization code flow with PKCE (S256), `state` and `nonce`, ID token
 * validation, userinfo. What is ours: which URLs may be fetched, and caching discovery.
 *
 * Requests go to https, and to plain http only on a loopback host (an issuer under test, or a
 * provider on the same machine); certificates are checked by Node's fetch against Node's trust
 * store (NODE_EXTRA_CA_CERTS included). They do not go through the outbound-address rule of
 * server/net/outbound.ts: that rule guards addresses other people choose (webhooks, push),
 * while an issuer is chosen by the operator and is often on a private network
 * (docs/decisions/153-oidc-flow-state-and-requests.md).
 */

/** Every request to a provider must be answered within this. */
const TIMEOUT_SECONDS = 10;
/** Discovery documents are read again after this long (keys rotate; endpoints rarely move). */
const DISCOVERY_TTL_MS = 60 * 60_000;

/** The provider could not be reached (network, timeout, 5xx during discovery). */
export class ProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The OpenID provider could not be reached', { cause });
    this.name = 'ProviderUnavailableError';
  }
}

/** A URL that is neither https nor http on loopback: refused before any connection. */
function checkedUrl(raw: URL | string): URL {
  const url = new URL(raw);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url;
  throw new TypeError(`refused to fetch ${url.protocol}//${url.host}: OpenID provider endpoints must be https (http only on loopback)`);
}

const guardedFetch: client.CustomFetch = (url, options) => {
  checkedUrl(url);
  return fetch(url, options);
};

/** Network failures: fetch's TypeError ("fetch failed", with the socket error as cause), timeouts, refused connections. */
function isNetworkFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR_)/.test(code)) return true;
  }
  return false;
}

/** The claims a sign-in needs, from the ID token, else the userinfo endpoint. */
export interface ProviderClaims {
  subject: string;
  email: string | null;
  /** Only `true` counts: a provider that does not say so has not verified the address. */
  emailVerified: boolean;
  name: string | null;
}

export interface AuthorizationStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClient {
  /** A new authorization request: the provider's URL to send the browser to, and what to keep for its answer. */
  start(provider: OidcProviderConfig, redirectUri: string): Promise<AuthorizationStart>;
  /**
   * Checks the provider's answer (the callback URL as it arrived) against the kept state,
   * nonce and PKCE verifier, redeems the code and reads the claims. Throws
   * ProviderUnavailableError when the provider cannot be reached, any other error when the
   * answer is not valid.
   */
  finish(provider: OidcProviderConfig, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderClaims>;
}

const stringClaim = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function createOidcClient(now: () => number = Date.now): OidcClient {
  const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

  const configOf = async (provider: OidcProviderConfig): Promise<client.Configuration> => {
    const cached = discovered.get(provider.id);
    if (cached !== undefined && now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const issuer = checkedUrl(provider.issuer);
    const config = client.discovery(issuer, provider.clientId, undefined, client.ClientSecretPost(provider.clientSecret), {
      [client.customFetch]: guardedFetch,
      timeout: TIMEOUT_SECONDS,
      // Plain http only for a loopback issuer; every URL is checked again by guardedFetch.
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the library marks it so it stands out; it is used only for a loopback issuer
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    });
    discovered.set(provider.id, { at: now(), config });
    try {
      return await config;
    } catch (error) {
      discovered.delete(provider.id);
      throw isNetworkFailure(error) || (error instanceof client.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') ? new ProviderUnavailableError(error) : error;
    }
  };

  const unavailableOr = (error: unknown) => (isNetworkFailure(error) ? new ProviderUnavailableError(error) : error);

  return {
    async start(provider, redirectUri) {
      const config = await configOf(provider);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: provider.scopes.join(' '),
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finish(provider, callbackUrl, expected) {
      const config = await configOf(provider);
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (idClaims === undefined) throw new TypeError('the provider sent no ID token');
        let claims: Record<string, unknown> = idClaims;
        // Providers often put only `sub` in the ID token when an access token is issued (OIDC Core
        // 5.4), and some name the address there but say whether it is verified only at userinfo.
        // The address and whether it is verified are then both taken from userinfo: they belong
        // together, and an address without `email_verified: true` links and makes nothing.
        if (stringClaim(idClaims.email) === null || typeof idClaims.email_verified !== 'boolean') {
          const userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          claims = { ...userinfo, ...idClaims, email: userinfo.email, email_verified: userinfo.email_verified };
        }
        return {
          subject: idClaims.sub,
          email: stringClaim(claims.email),
          emailVerified: claims.email_verified === true,
          name: stringClaim(claims.name),
        };
      } catch (error) {
        throw unavailableOr(error);
      }
    },
  };
}
