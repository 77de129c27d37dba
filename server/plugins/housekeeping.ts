import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_WINDOW_MS, LOGIN_POLICY } from '#shared/constants.ts';
import { NOTIFICATION_POLICY } from '#shared/schemas/notifications.ts';
import { DAY, HOUR } from '../clock.ts';
import { EVENT_RETENTION_MS } from '../events/policy.ts';
import { createEventStreamLeasesRepository } from '../repositories/event-stream-leases-repository.ts';
import { createEventsRepository } from '../repositories/events-repository.ts';
import { createRateLimitHitsRepository } from '../repositories/rate-limit-hits-repository.ts';

/**
 * Deletes rows no rule reads any more: expired sessions, one-time codes older than a day (the
 * longest OTP window is an hour), login failures older than the lock-out window, throttle lock
 * rows unused for a day, events older than the live stream's retention (10 minutes), expired
 * event stream leases, rate-limit hits older than a day (the longest window, that of wrong
 * one-time codes), notifications older than 90 days, each person's notifications past their
 * newest 1,000 (of the people notified in the last day: the sweep runs hourly on every
 * instance), Idempotency-Key answers older than a day (the window in which a repeat counts;
 * deleted a batch at a time), resumable uploads started more than a day ago (each under its
 * upload's lock), expired sign-ins waiting for their second step, expired sign-ins at OpenID
 * providers. Idempotent, so several instances sharing a database may all run it. Cut-offs come
 * from the app's clock.
 */
export async function sweep(fastify: FastifyInstance) {
  const now = fastify.clock.now().getTime();
  return {
    sessions: await fastify.sessionsRepository.deleteExpired(new Date(now).toISOString()),
    otpCodes: await fastify.otpCodesRepository.deleteCreatedBefore(new Date(now - DAY).toISOString()),
    loginFailures: await fastify.loginFailuresRepository.deleteBefore(new Date(now - LOGIN_POLICY.windowMs).toISOString()),
    throttleLocks: await fastify.throttleLocksRepository.deleteUntouchedSince(new Date(now - DAY).toISOString()),
    events: await createEventsRepository(fastify.db).pruneBefore(new Date(now - EVENT_RETENTION_MS).toISOString()),
    eventStreamLeases: await createEventStreamLeasesRepository(fastify.db).deleteExpired(new Date(now).toISOString()),
    rateLimitHits: await createRateLimitHitsRepository(fastify.db).deleteBefore(new Date(now - DAY).toISOString()),
    notifications: await fastify.notificationsRepository.deleteBefore(new Date(now - NOTIFICATION_POLICY.keepDays * DAY).toISOString()),
    notificationsPastCap: await fastify.notificationsRepository.trimToCap(new Date(now - DAY).toISOString()),
    idempotencyKeys: await fastify.idempotencyRepository.deleteBefore(new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString()),
    partialUploads: await fastify.partialUploads.expire(new Date(now)),
    secondStepTokens: await fastify.twoStepRepository.deleteExpiredTokens(new Date(now).toISOString()),
    oidcFlows: await fastify.identitiesRepository.deleteFlowsExpiredBefore(new Date(now).toISOString()),
    webauthnChallenges: await fastify.passkeysRepository.deleteExpiredChallenges(new Date(now).toISOString()),
  };
}

/** Sweeps once before the server accepts requests, then hourly (an unref'd timer). */
export default fp(
  (fastify, _opts, done) => {
    const run = async () => {
      try {
        const deleted = await sweep(fastify);
        fastify.log.debug({ deleted }, 'Housekeeping done');
      } catch (error) {
        fastify.log.warn({ err: error }, 'Housekeeping failed; it runs again in an hour');
      }
    };
    let timer: NodeJS.Timeout | undefined;
    fastify.addHook('onReady', async () => {
      await run();
      timer = setInterval(() => void run(), HOUR);
      timer.unref();
    });
    fastify.addHook('preClose', (next) => {
      clearInterval(timer);
      next();
    });
    done();
  },
  { name: 'housekeeping', dependencies: ['repositories', 'files'] },
);
