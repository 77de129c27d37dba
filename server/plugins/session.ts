import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { parseCookie, stringifySetCookie } from 'cookie';
import { SESSION_POLICY } from '#shared/constants.ts';
import { TOKEN_MESSAGES, TOKEN_POLICY } from '#shared/schemas/tokens.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError, notAuthenticated } from '../errors.ts';
import { bearerOf, hashTokenSecret, isTokenSecret } from '../services/api-tokens.ts';
import { meetsSecondStepRule } from '../services/sign-in-methods.ts';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';
import { ADMIN_MESSAGES } from '#shared/admin.ts';

export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
  /** The account's language tag as stored (server/i18n/request-language.ts reads it). */
  language: string;
}

/** The personal API token a request was signed in with (`Authorization: Bearer`). */
export interface RequestToken {
  id: string;
  access: 'read' | 'write';
  /** The SHA-256 of its secret: what an event stream opened with it is tied to. */
  secretHash: string;
}

/** Sessions that just ended on this instance: one session, or all of a user's but one. */
export type EndedSessions = { sessionId: string } | { userId: string; exceptSessionId: string | null };

export interface SessionService {
  /**
   * Starts a new session for the user (replacing the request's old one) and sets the cookie.
   * `alsoInTransaction` runs in the same transaction (one commit for the whole sign-in).
   */
  start(request: FastifyRequest, reply: FastifyReply, userId: string, alsoInTransaction?: (trx: Executor) => Promise<void>): Promise<void>;
  /** Deletes the request's session, if any, and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Ends every session of the user, in `trx` when given. With `keep`, that request's own session
   * survives (a password change signs out the other devices only). Every API token of the user
   * is deleted with them.
   */
  endAllOf(userId: string, options?: { keep?: FastifyRequest; trx?: Executor }): Promise<void>;
  /**
   * Ends every session of a deactivated account (in `trx`) and its event streams on this
   * instance; its API tokens stay (refused while it is deactivated, working again after).
   */
  endSessionsOf(userId: string, trx: Executor): Promise<void>;
  /** Clears the session cookie on the answer (after `endAllOf` ended this session too). */
  clearCookie(reply: FastifyReply): void;
  /**
   * Deletes the user's API token `tokenId` (someone else's stays: false) and ends the event
   * streams opened with it on this instance.
   */
  revokeToken(userId: string, tokenId: string): Promise<boolean>;
  /**
   * The id of the request's session (the hash its row is stored under), from the cookie; read
   * only where a session must be remembered (an event stream), never by the per-request check.
   * A request signed in with an API token: its secret's hash (the token is its session).
   */
  idOf(request: FastifyRequest): string | undefined;
  /**
   * Calls `listener` each time this instance ends sessions, right after their rows are deleted
   * (in the caller's transaction, when it has one: a rollback can end a stream for nothing, and
   * its client reconnects). Sessions ended elsewhere are found by whoever needs to know.
   */
  onEnd(listener: (ended: EndedSessions) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    /**
     * Route `onRequest` hook: 401 unless a live session cookie, or a live API token
     * (`Authorization: Bearer`), came with the request. A token is held to its limits here:
     * `read` only GETs (403 TOKEN_READ_ONLY), never a route configured `apiTokens: 'forbidden'`
     * (403 TOKEN_NOT_ALLOWED).
     */
    authenticate: onRequestAsyncHookHandler;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** Set when the request was signed in with an API token instead of a session cookie. */
    apiToken: RequestToken | null;
  }
  interface FastifyContextConfig {
    /**
     * `'forbidden'`: an API token may not call this route, whatever its access (403
     * TOKEN_NOT_ALLOWED): managing tokens, the password, sessions, push subscriptions, the
     * account. The one place that decides it; test/tokens-routes.test.ts walks every route.
     */
    apiTokens?: 'forbidden';
    /**
     * `'setup'`: reachable by an account that must still set up its second step of sign-in
     * (REQUIRE_2FA): reading /users/me and setting the second step up. Every other
     * authenticated route answers such an account 403 SECOND_STEP_REQUIRED.
     */
    secondStep?: 'setup';
  }
}

/** The methods a `read` token may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);
/** Bearer calls are told how to authenticate (RFC 6750); the body is the same for every reason. */
const tokenRejected = () => new AppError(401, 'NOT_AUTHENTICATED', TOKEN_MESSAGES.invalid, undefined, { 'www-authenticate': 'Bearer realm="taskwise"' });

/** 256 random bits, base64url: 43 characters. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Server-side sessions (docs/SECURITY.md): the cookie carries a random 256-bit token, the database
 * only its SHA-256. 30 days, sliding: `expires_at` is pushed forward at most every 5 minutes,
 * so the check on almost every request is one primary-key read.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.sessionsRepository;
    const tokens = fastify.apiTokensRepository;
    const { cookieName, ttlMs, touchIntervalMs } = SESSION_POLICY;
    const cookieOptions = {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: fastify.config.secureCookies,
    } as const;

    // The one cookie is read and written here with the `cookie` package (what @fastify/cookie
    // wraps) rather than through that plugin, whose two hooks ran on every request, cookie or
    // not (docs/performance.md).
    // A request with `Authorization: Bearer` is signed in by its token alone: its cookie, if it
    // has one, is never read (docs/decisions/082-bearer-token-requests.md), which is what lets
    // such a request skip the cookie rules (plugins/security.ts).
    const readToken = (request: FastifyRequest): string | undefined => {
      if (bearerOf(request.headers.authorization) !== undefined) return undefined;
      const header = request.headers.cookie;
      const token = header === undefined ? undefined : parseCookie(header)[cookieName];
      return token !== undefined && TOKEN_RE.test(token) ? token : undefined;
    };
    const setCookie = (reply: FastifyReply, token: string) =>
      reply.header('set-cookie', stringifySetCookie({ name: cookieName, value: token, ...cookieOptions, maxAge: Math.floor(ttlMs / 1000) }));
    const clearCookie = (reply: FastifyReply) =>
      reply.header('set-cookie', stringifySetCookie({ name: cookieName, value: '', ...cookieOptions, expires: new Date(0), maxAge: 0 }));

    /** Notes the sign-in on the account; 403 ACCOUNT_DEACTIVATED when it is deactivated. */
    const refuseDeactivated = async (userId: string, nowIso: string, trx: Executor) => {
      const result = await trx.updateTable('users').set({ lastSignInAt: nowIso }).where('id', '=', userId).where('deactivatedAt', 'is', null).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw accountDeactivated();
    };

    fastify.decorateRequest('user', null);
    fastify.decorateRequest('apiToken', null);
    const endListeners: ((ended: EndedSessions) => void)[] = [];
    const ended = (which: EndedSessions) => {
      for (const listener of endListeners) listener(which);
    };

    fastify.decorate('sessions', {
      async start(request, reply, userId, alsoInTransaction) {
        const now = clock.now();
        const nowIso = now.toISOString();
        const token = randomBytes(32).toString('base64url');
        const previous = readToken(request);
        await fastify.db.transaction().execute(async (trx) => {
          // Every way in passes here: a deactivated account gets no session (its row is locked
          // until the commit, so a deactivation at the same moment waits and then ends this one).
          await refuseDeactivated(userId, nowIso, trx);
          if (alsoInTransaction !== undefined) await alsoInTransaction(trx);
          // A new session on every sign-in; the one the browser had before is dropped.
          if (previous !== undefined) {
            const sessionId = hashToken(previous);
            await repo.delete(sessionId, trx);
            ended({ sessionId });
          }
          await repo.deleteExpiredForUser(userId, nowIso, trx);
          await repo.insert(
            {
              tokenHash: hashToken(token),
              userId,
              createdAt: nowIso,
              lastSeenAt: nowIso,
              expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
            },
            trx,
          );
        });
        setCookie(reply, token);
      },

      async end(request, reply) {
        const token = readToken(request);
        if (token !== undefined) {
          const sessionId = hashToken(token);
          await repo.delete(sessionId);
          ended({ sessionId });
        }
        clearCookie(reply);
      },

      async endAllOf(userId, { keep, trx } = {}) {
        const kept = keep === undefined ? undefined : readToken(keep);
        const exceptSessionId = kept === undefined ? null : hashToken(kept);
        await repo.deleteForUser(userId, exceptSessionId, trx);
        await tokens.deleteAllOf(userId, trx);
        ended({ userId, exceptSessionId });
      },

      async endSessionsOf(userId, trx) {
        await repo.deleteForUser(userId, null, trx);
        ended({ userId, exceptSessionId: null });
      },

      clearCookie(reply) {
        clearCookie(reply);
      },

      async revokeToken(userId, tokenId) {
        const secretHash = await tokens.deleteOwn(userId, tokenId);
        if (secretHash === undefined) return false;
        ended({ sessionId: secretHash });
        return true;
      },

      idOf(request) {
        if (request.apiToken !== null) return request.apiToken.secretHash;
        const token = readToken(request);
        return token === undefined ? undefined : hashToken(token);
      },

      onEnd(listener) {
        endListeners.push(listener);
      },
    } satisfies SessionService);

    /** Signs the request in with the API token whose secret it sent (401 for any bad one). */
    const authenticateToken = async (request: FastifyRequest, secret: string) => {
      if (!isTokenSecret(secret)) throw tokenRejected();
      const secretHash = hashTokenSecret(secret);
      const token = await tokens.findBySecretHash(secretHash);
      const now = clock.now();
      const nowMs = now.getTime();
      // Unknown, revoked and expired alike: the same answer.
      if (token === undefined || (token.expiresAt !== null && Date.parse(token.expiresAt) <= nowMs)) throw tokenRejected();
      if (request.routeOptions.config.apiTokens === 'forbidden') throw new AppError(403, 'TOKEN_NOT_ALLOWED', TOKEN_MESSAGES.notAllowed);
      if (token.access === 'read' && !READ_METHODS.has(request.method)) throw new AppError(403, 'TOKEN_READ_ONLY', TOKEN_MESSAGES.readOnly);
      const { touchIntervalMs: touchMs } = TOKEN_POLICY;
      if (token.lastUsedAt === null || nowMs - Date.parse(token.lastUsedAt) >= touchMs) {
        await tokens.touch(token.id, now.toISOString(), new Date(nowMs - touchMs).toISOString());
      }
      request.user = { id: token.userId, email: token.email, fullName: token.fullName, language: token.language };
      request.apiToken = { id: token.id, access: token.access, secretHash };
    };

    /** REQUIRE_2FA: an account without a second step (or a passkey) may only set one up (asked only when it is on). */
    const checkSecondStep = async (request: FastifyRequest, userId: string) => {
      if (!fastify.config.requireSecondStep || request.routeOptions.config.secondStep === 'setup') return;
      if (!(await meetsSecondStepRule(fastify, userId))) throw new AppError(403, 'SECOND_STEP_REQUIRED', TWO_STEP_MESSAGES.setupRequired);
    };

    fastify.decorate('authenticate', async function authenticate(request: FastifyRequest, reply: FastifyReply) {
      const secret = bearerOf(request.headers.authorization);
      if (secret !== undefined) {
        await authenticateToken(request, secret);
        await checkSecondStep(request, currentUser(request).id);
        return;
      }
      const token = readToken(request);
      if (token === undefined) throw notAuthenticated();
      const tokenHash = hashToken(token);
      const session = await repo.findWithUser(tokenHash);
      if (session === undefined) {
        clearCookie(reply);
        throw notAuthenticated();
      }
      const now = clock.now();
      const nowMs = now.getTime();
      if (Date.parse(session.expiresAt) <= nowMs) {
        await repo.delete(tokenHash);
        clearCookie(reply);
        throw notAuthenticated();
      }
      if (nowMs - Date.parse(session.lastSeenAt) >= touchIntervalMs) {
        await repo.touch(tokenHash, now.toISOString(), new Date(nowMs + ttlMs).toISOString());
        setCookie(reply, token);
      }
      request.user = { id: session.userId, email: session.email, fullName: session.fullName, language: session.language };
      await checkSecondStep(request, session.userId);
    });
    done();
  },
  { name: 'session', dependencies: ['config', 'repositories'] },
);

/** 403 ACCOUNT_DEACTIVATED: what every way in answers a deactivated account (after its credential proved right). */
export const accountDeactivated = (): AppError => new AppError(403, 'ACCOUNT_DEACTIVATED', ADMIN_MESSAGES.deactivated);

/** The signed-in user of a route guarded by `fastify.authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw notAuthenticated();
  return request.user;
}
