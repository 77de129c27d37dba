import type { FastifyBaseLogger } from 'fastify';
import type { StreamLeases } from './leases.ts';
import type { StreamRegistry } from './streams.ts';

/**
 * Ends this instance's streams whose session has ended or expired anywhere: logged out through
 * another instance, revoked by the admin command, run out. One query covers all of the
 * instance's open streams (their leases carry the session); it runs on a timer
 * (SESSION_CHECK_MS), never per event or per request. Sessions ended on this instance end their
 * streams at once, without waiting for it (SessionService.onEnd).
 */
export function createSessionCheck(leases: StreamLeases, streams: StreamRegistry, logger: FastifyBaseLogger) {
  let busy = false;
  return async function check(): Promise<void> {
    if (streams.open === 0 || busy) return;
    busy = true;
    try {
      for (const sessionId of await leases.endedSessions()) streams.endSession(sessionId);
    } catch (error) {
      // The next run checks again.
      logger.warn({ err: error }, 'Checking the sessions of event streams failed');
    } finally {
      busy = false;
    }
  };
}
