import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { parseCookie, stringifySetCookie } from 'cookie';
import { LOGIN_POLICY } from '#shared/constants.ts';
import { isValidEmail, normalizeEmail } from '#shared/email.ts';
import { OIDC_FLOW_TTL_MS, type OidcErrorCode } from '#shared/oidc.ts';
import { TWO_STEP_POLICY } from '#shared/two-step.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../errors.ts';
import { createOidcClient, ProviderUnavailableError, type OidcClient, type ProviderClaims } from '../oidc/oidc-client.ts';
import type { OidcProviderConfig } from '../oidc/provider-config.ts';
import { clientBucket, WindowCounter } from '../plugins/rate-limit.ts';
import { activateInvitations } from './board-events.ts';
import { NO_PASSWORD_HASH } from './passwords.ts';
import { checkMayRegister, dropInstanceInvitation } from './registration.ts';
import { hashSecondStepToken, hasSecondStep } from './two-step.ts';
import { newAccountLanguage } from '../i18n/account-language.ts';

/**
 * Sign-in and linking through OpenID Connect providers (OIDC_PROVIDERS).
 *
 * A flow's state lives in the database (`oidc_flows`), not in this process: the provider's
 * answer may reach any instance. It is bound to the browser that started it by a short-lived
 * cookie (only its SHA-256 is stored), expires after 10 minutes and is used once.
 *
 * Who signs in: the account linked to the provider's subject; else, the first time, the
 * account with the provider's address when the provider says `email_verified: true` (then it is
 * linked); else a new account (also only for a verified address), when the registration policy
 * lets the address register. A provider sign-in of an account with two-step sign-in on asks its
 * second step like a password does (docs/decisions/154-oidc-accounts-and-second-step.md).
 */

export const FLOW_COOKIE = 'taskwise_oidc';
const FLOW_COOKIE_PATH = '/api/auth/oidc';
const COOKIE_RE = /^[A-Za-z0-9_-]{43}$/;
/** Starts of flows per IP in the sign-in window: each writes a row before anyone proved anything. */
const MAX_STARTS_PER_IP = 100;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A failure the browser is sent back with (`?error=CODE`). */
export class OidcFlowError extends Error {
  readonly code: OidcErrorCode;
  readonly purpose: 'sign-in' | 'link';
  constructor(code: OidcErrorCode, purpose: 'sign-in' | 'link' = 'sign-in', cause?: unknown) {
    super(code, { cause });
    this.name = 'OidcFlowError';
    this.code = code;
    this.purpose = purpose;
  }
}

/** A backslash (browsers read `/\\host` as `//host`) or a control character. */
function hasBackslashOrControl(raw: string): boolean {
  for (let i = 0; i < raw.length; i += 1) {
    const code = raw.charCodeAt(i);
    if (code === 0x5c || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Where to go after a sign-in: a path of this app (never another origin, never the API),
 * else `fallback`. `//evil.example`, `/\evil.example`, `https://…` and the like all fall back.
 */
export function safeReturnPath(raw: unknown, appOrigin: string, fallback = '/'): string {
  if (typeof raw !== 'string' || raw.length > 512 || !raw.startsWith('/') || raw.startsWith('//') || hasBackslashOrControl(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, appOrigin);
  } catch {
    return fallback;
  }
  if (url.origin !== appOrigin || url.pathname.startsWith('/api/') || url.pathname === '/api') return fallback;
  // Dot segments are resolved: `/.//evil.example` comes out as `//evil.example`, another host to a browser.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? fallback : path;
}

/** What the provider's answer led to. */
export type FlowOutcome =
  | { kind: 'signed-in'; returnTo: string }
  | { kind: 'second-step'; token: string }
  | { kind: 'linked'; providerId: string; returnTo: string };

export interface OidcSignIn {
  readonly providers: readonly OidcProviderConfig[];
  providerOf(id: string): OidcProviderConfig | undefined;
  /** Starts a flow: stores it, sets the browser's flow cookie, answers the provider's URL to go to. */
  start(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: OidcProviderConfig,
    purpose: { kind: 'sign-in'; returnTo: string } | { kind: 'link'; userId: string; returnTo: string },
  ): Promise<string>;
  /** Finishes a flow with the provider's answer at the callback; throws OidcFlowError. */
  finish(request: FastifyRequest, reply: FastifyReply, provider: OidcProviderConfig, query: Record<string, string>): Promise<FlowOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    oidc: OidcSignIn;
  }
}

const redirectUriOf = (appOrigin: string, providerId: string) => `${appOrigin}/api/auth/oidc/${providerId}/callback`;

/** The full name a new account gets: the provider's `name`, else the address's local part. */
function fullNameOf(claims: ProviderClaims, email: string): string {
  const name = (claims.name ?? email.slice(0, email.indexOf('@'))).trim().slice(0, 100);
  return name === '' ? email.slice(0, 100) : name;
}

/**
 * The account the provider's answer signs in to: the linked one, else the one with its verified
 * address (linked now), else a new one in the language of the browser's `Accept-Language`.
 */
async function accountFor(fastify: FastifyInstance, provider: OidcProviderConfig, claims: ProviderClaims, acceptLanguage: string | undefined): Promise<{ id: string; email: string }> {
  const { identitiesRepository: identities, usersRepository: users, clock } = fastify;
  const linked = await identities.findAccount(provider.id, claims.subject);
  if (linked !== undefined) return linked;
  const email = claims.email === null ? null : normalizeEmail(claims.email);
  if (email === null || !isValidEmail(email)) throw new OidcFlowError('oidc_no_email');
  // An address the provider has not verified proves nothing: it neither finds an account nor makes one.
  if (!claims.emailVerified) throw new OidcFlowError('oidc_unverified');
  const now = clock.now().toISOString();
  const identity = { providerId: provider.id, subject: claims.subject, email, createdAt: now, lastUsedAt: null };
  const existing = await users.findByEmail(email);
  if (existing !== undefined) {
    if (!(await identities.link({ ...identity, userId: existing.id }))) throw new OidcFlowError('oidc_taken');
    return existing;
  }
  try {
    await checkMayRegister(fastify.config.registration, fastify, email);
  } catch (error) {
    if (error instanceof AppError && error.code === 'REGISTRATION_CLOSED') throw new OidcFlowError('registration_closed', 'sign-in', error);
    throw error;
  }
  const id = newId();
  try {
    await fastify.events.transaction(async (trx) => {
      // No password: only the provider (or a password set later with a reset) signs in to it.
      await users.insert({ id, email, fullName: fullNameOf(claims, email), passwordHash: NO_PASSWORD_HASH, createdAt: now, updatedAt: now, ...newAccountLanguage(acceptLanguage) }, trx);
      if (!(await identities.link({ ...identity, userId: id }, trx))) throw new OidcFlowError('oidc_taken');
      // The provider verified the address: the boards it was invited to become the account's.
      await activateInvitations(fastify.boardsRepository, trx, { id, email }, now);
      await dropInstanceInvitation(trx, email);
    });
  } catch (error) {
    // Another sign-in made the account (or the link) first: sign in to that one.
    if (isUniqueViolation(error)) return accountFor(fastify, provider, claims, acceptLanguage);
    throw error;
  }
  return { id, email };
}

export default fp(
  (fastify, _opts, done) => {
    const { clock, config, identitiesRepository: identities } = fastify;
    const client: OidcClient = createOidcClient();
    const starts = new WindowCounter(fastify, 'oidc-start-ip', MAX_STARTS_PER_IP, LOGIN_POLICY.windowMs, clientBucket);
    const cookieOptions = { httpOnly: true, sameSite: 'lax', path: FLOW_COOKIE_PATH, secure: config.secureCookies } as const;

    const readCookie = (request: FastifyRequest): string | undefined => {
      const header = request.headers.cookie;
      const value = header === undefined ? undefined : parseCookie(header)[FLOW_COOKIE];
      return value !== undefined && COOKIE_RE.test(value) ? value : undefined;
    };
    const clearCookie = (reply: FastifyReply) => {
      reply.header('set-cookie', stringifySetCookie({ name: FLOW_COOKIE, value: '', ...cookieOptions, expires: new Date(0), maxAge: 0 }));
    };

    const service: OidcSignIn = {
      providers: config.oidcProviders,
      providerOf: (id) => config.oidcProviders.find((p) => p.id === id),

      async start(request, reply, provider, purpose) {
        if ((await starts.hit(request.ip)) > 0) throw new OidcFlowError('rate_limited', purpose.kind);
        let authorization;
        try {
          authorization = await client.start(provider, redirectUriOf(config.appOrigin, provider.id));
        } catch (error) {
          request.log.warn({ err: error, provider: provider.id }, 'OpenID provider discovery failed');
          throw new OidcFlowError(error instanceof ProviderUnavailableError ? 'oidc_unavailable' : 'oidc_failed', purpose.kind, error);
        }
        // One cookie per browser: flows started in two tabs both stay valid.
        const browser = readCookie(request) ?? randomBytes(32).toString('base64url');
        const now = clock.now();
        await identities.insertFlow({
          stateHash: sha256(authorization.state),
          browserHash: sha256(browser),
          providerId: provider.id,
          purpose: purpose.kind,
          userId: purpose.kind === 'link' ? purpose.userId : null,
          nonce: authorization.nonce,
          codeVerifier: authorization.codeVerifier,
          returnTo: purpose.returnTo,
          expiresAt: new Date(now.getTime() + OIDC_FLOW_TTL_MS).toISOString(),
          consumedAt: null,
          createdAt: now.toISOString(),
        });
        reply.header(
          'set-cookie',
          stringifySetCookie({ name: FLOW_COOKIE, value: browser, ...cookieOptions, maxAge: Math.floor(OIDC_FLOW_TTL_MS / 1000) }),
        );
        return authorization.url;
      },

      async finish(request, reply, provider, query) {
        if ((await fastify.rateLimits.loginPerIp.hit(request.ip)) > 0) throw new OidcFlowError('rate_limited');
        const browser = readCookie(request);
        const state = query.state;
        const flow = state === undefined || state === '' ? undefined : await identities.findFlow(sha256(state));
        // A state this browser did not start (or none at all) is refused before anything else is read.
        if (flow === undefined || browser === undefined || flow.browserHash !== sha256(browser) || flow.providerId !== provider.id) {
          throw new OidcFlowError('oidc_state');
        }
        const purpose = flow.purpose;
        const nowIso = clock.now().toISOString();
        if (flow.consumedAt !== null) throw new OidcFlowError('oidc_replayed', purpose);
        if (flow.expiresAt <= nowIso) throw new OidcFlowError('oidc_expired', purpose);
        // Used up before the code is redeemed: of two answers with the same state, one goes on.
        if (!(await identities.consumeFlow(flow.stateHash, nowIso))) throw new OidcFlowError('oidc_replayed', purpose);
        clearCookie(reply);
        if (query.error !== undefined) throw new OidcFlowError('oidc_denied', purpose);

        const callbackUrl = new URL(redirectUriOf(config.appOrigin, provider.id));
        for (const [name, value] of Object.entries(query)) callbackUrl.searchParams.set(name, value);
        let claims: ProviderClaims;
        try {
          claims = await client.finish(provider, callbackUrl, { state: state ?? '', nonce: flow.nonce, codeVerifier: flow.codeVerifier });
        } catch (error) {
          request.log.warn({ err: error, provider: provider.id }, 'OpenID provider answer refused');
          throw new OidcFlowError(error instanceof ProviderUnavailableError ? 'oidc_unavailable' : 'oidc_failed', purpose, error);
        }

        if (purpose === 'link') {
          const userId = flow.userId;
          if (userId === null) throw new OidcFlowError('oidc_state', purpose);
          const linked = await identities.findAccount(provider.id, claims.subject);
          if (linked !== undefined && linked.id !== userId) throw new OidcFlowError('oidc_taken', purpose);
          if (linked === undefined) {
            const email = claims.email === null ? '' : normalizeEmail(claims.email);
            const ok = await identities.link({ providerId: provider.id, subject: claims.subject, userId, email, createdAt: nowIso, lastUsedAt: null });
            if (!ok) throw new OidcFlowError('oidc_taken', purpose);
          }
          return { kind: 'linked', providerId: provider.id, returnTo: flow.returnTo };
        }

        const account = await accountFor(fastify, provider, claims, request.headers['accept-language']);
        if (await hasSecondStep(fastify, account.id)) {
          // The provider vouches for the first factor only: an account with a second step is asked for it.
          const token = randomBytes(32).toString('base64url');
          const expiresAt = new Date(clock.now().getTime() + TWO_STEP_POLICY.tokenTtlMs).toISOString();
          await fastify.twoStepRepository.insertToken({ tokenHash: hashSecondStepToken(token), userId: account.id, expiresAt }, nowIso);
          await identities.touch(provider.id, claims.subject, nowIso);
          return { kind: 'second-step', token };
        }
        // The same session start as a password sign-in: cookie, sessions row, one transaction.
        try {
          await fastify.sessions.start(request, reply, account.id, (trx) => identities.touch(provider.id, claims.subject, nowIso, trx));
        } catch (error) {
          // Said on the sign-in page the browser is sent back to, as every other refusal here.
          if (error instanceof AppError && error.code === 'ACCOUNT_DEACTIVATED') throw new OidcFlowError('account_deactivated', purpose, error);
          throw error;
        }
        return { kind: 'signed-in', returnTo: flow.returnTo };
      },
    };
    fastify.decorate('oidc', service);
    done();
  },
  { name: 'oidc-sign-in', dependencies: ['config', 'repositories', 'rate-limit', 'session', 'events'] },
);
