import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { parseCookie, stringifySetCookie } from 'cookie';
import { SESSION_POLICY } from '#shared/constants.ts';
import type { Executor } from '../db/prepared.ts';
import { notAuthenticated } from '../errors.ts';

export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
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
   * survives (a password change signs out the other devices only).
   */
  endAllOf(userId: string, options?: { keep?: FastifyRequest; trx?: Executor }): Promise<void>;
  /** Clears the session cookie on the answer (after `endAllOf` ended this session too). */
  clearCookie(reply: FastifyReply): void;
  /**
   * The id of the request's session (the hash its row is stored under), from the cookie; read
   * only where a session must be remembered (an event stream), never by the per-request check.
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
    /** Route `onRequest` hook: 401 unless a live session cookie came with the request. */
    authenticate: onRequestAsyncHookHandler;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

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
    const readToken = (request: FastifyRequest): string | undefined => {
      const header = request.headers.cookie;
      const token = header === undefined ? undefined : parseCookie(header)[cookieName];
      return token !== undefined && TOKEN_RE.test(token) ? token : undefined;
    };
    const setCookie = (reply: FastifyReply, token: string) =>
      reply.header('set-cookie', stringifySetCookie({ name: cookieName, value: token, ...cookieOptions, maxAge: Math.floor(ttlMs / 1000) }));
    const clearCookie = (reply: FastifyReply) =>
      reply.header('set-cookie', stringifySetCookie({ name: cookieName, value: '', ...cookieOptions, expires: new Date(0), maxAge: 0 }));

    fastify.decorateRequest('user', null);
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
        ended({ userId, exceptSessionId });
      },

      clearCookie(reply) {
        clearCookie(reply);
      },

      idOf(request) {
        const token = readToken(request);
        return token === undefined ? undefined : hashToken(token);
      },

      onEnd(listener) {
        endListeners.push(listener);
      },
    } satisfies SessionService);

    fastify.decorate('authenticate', async function authenticate(request: FastifyRequest, reply: FastifyReply) {
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
      request.user = { id: session.userId, email: session.email, fullName: session.fullName };
    });
    done();
  },
  { name: 'session', dependencies: ['config', 'repositories'] },
);

/** The signed-in user of a route guarded by `fastify.authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw notAuthenticated();
  return request.user;
}
