import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { AppError } from '../errors.ts';
import type { AuthUser } from '../plugins/session.ts';
import { createEventStreamLeasesRepository } from '../repositories/event-stream-leases-repository.ts';
import { LEASE_MS, MAX_STREAMS_PER_USER } from './policy.ts';

/**
 * Open streams are leased in the database, one row each, so the per-user cap holds across
 * instances. This instance renews its rows while their streams live and removes them when they
 * end; rows of an instance that died expire by themselves (LEASE_MS).
 */
export function createStreamLeases(fastify: Pick<FastifyInstance, 'db' | 'clock' | 'log' | 'throttleLocksRepository'>) {
  const { clock } = fastify;
  const repo = createEventStreamLeasesRepository(fastify.db);
  const instanceId = randomBytes(12).toString('base64url');
  const expiry = (now: Date) => new Date(now.getTime() + LEASE_MS).toISOString();

  return {
    /** A lease for a new stream of `user` in session `sessionId`; 429 when the user has MAX_STREAMS_PER_USER already. */
    async take(user: AuthUser, sessionId: string): Promise<string> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const id = randomBytes(12).toString('base64url');
      await fastify.db.transaction().execute(async (trx) => {
        // Serializes the count-then-insert per user across requests and instances.
        await fastify.throttleLocksRepository.take(`events:${user.id}`, nowIso, trx);
        if ((await repo.countLive(user.id, nowIso, trx)) >= MAX_STREAMS_PER_USER) {
          throw new AppError(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyStreams, undefined, { 'retry-after': '10' });
        }
        await repo.insert({ id, userId: user.id, instanceId, expiresAt: expiry(now), sessionTokenHash: sessionId }, trx);
      });
      return id;
    },

    /** Frees a stream's lease in the background (a failure only leaves it to expire). */
    release(id: string): void {
      repo.delete(id).catch((error: unknown) => {
        fastify.log.warn({ err: error }, 'Could not release an event stream lease (it expires by itself)');
      });
    },

    /** Pushes out the expiry of every lease of this instance (its streams are alive). */
    async renew(): Promise<void> {
      await repo.renewInstance(instanceId, expiry(clock.now()));
    },

    /** The sessions of this instance's streams that ended or expired, wherever that happened. */
    async endedSessions(): Promise<string[]> {
      return repo.endedSessionsOf(instanceId, clock.now().toISOString());
    },

    /** Frees every lease of this instance (it is shutting down). */
    async releaseAll(): Promise<void> {
      await repo.deleteInstance(instanceId);
    },
  };
}

export type StreamLeases = ReturnType<typeof createStreamLeases>;
