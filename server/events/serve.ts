import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { AppError, notAuthenticated } from '../errors.ts';
import type { AuthUser } from '../plugins/session.ts';
import type { EventsRepository } from '../repositories/events-repository.ts';
import { boardChangeOf } from './addressing.ts';
import { LOG_PAGE } from './policy.ts';
import type { StreamLeases } from './leases.ts';
import { lastEventIdOf, positionFrame, resetFrame, RETRY_FRAME, startEventStream } from './sse.ts';
import type { Stream, StreamRegistry } from './streams.ts';
import { requestLanguage } from '../i18n/request-language.ts';

/** The first and last ids the event log holds, and the user's boards as of the last. */
interface StreamStart {
  min: number;
  max: number;
  boards: string[];
}

/**
 * Opens one `GET /api/events` stream. A stream that resumes (`Last-Event-ID`) first replays the
 * log after its id, then goes live; events that arrive meanwhile wait in its queue, and ids
 * already sent are skipped, so nothing is missed or sent twice. An id the log no longer covers
 * gets `event: reset`. The replay follows the live rules: the user's boards are read with the
 * log's end, wound back to the resumed id by the `board.added`/`board.removed` events for them
 * in between, and wound forward again as the replay passes those events.
 */
export function createStreamOpener(deps: {
  log: EventsRepository;
  streams: StreamRegistry;
  leases: StreamLeases;
  logger: FastifyBaseLogger;
  closing: () => boolean;
  /** The id of the request's session (see SessionService.idOf). */
  sessionIdOf: (request: FastifyRequest) => string | undefined;
}) {
  const { log, streams, leases, logger } = deps;

  /** Replays the log after `after` to `stream`, or sends a reset when the log no longer covers it. */
  async function catchUp(stream: Stream, after: number | undefined, { min, max, boards }: StreamStart): Promise<void> {
    stream.boards = new Set(boards);
    if (after === undefined) {
      // A fresh stream starts at the current end of the log; the id lets the browser resume from here.
      stream.lastId = max;
      streams.write(stream, positionFrame(max));
      return;
    }
    const known = Number.isInteger(after) && after <= max && (max === 0 ? after === 0 : after >= min - 1);
    if (!known) {
      stream.lastId = max;
      streams.write(stream, resetFrame(max));
      return;
    }
    // The boards as of `after`: undo, newest first, what the events since then changed.
    for (const event of (await log.boardChangesBetween(after, max)).reverse()) {
      const change = boardChangeOf(event, stream.email);
      if (change === undefined) continue;
      if (change.added) stream.boards.delete(change.boardId);
      else stream.boards.add(change.boardId);
    }
    stream.lastId = after;
    for (;;) {
      const events = await log.listAfter(stream.lastId, LOG_PAGE);
      for (const event of events) streams.deliver(stream, event);
      if (events.length < LOG_PAGE || stream.closed) break;
    }
  }

  return async function open(request: FastifyRequest, reply: FastifyReply, user: AuthUser): Promise<void> {
    if (deps.closing()) throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
    const sessionId = deps.sessionIdOf(request);
    if (sessionId === undefined) throw notAuthenticated();
    const after = lastEventIdOf(request);
    const leaseId = await leases.take(user, sessionId);
    const raw = reply.raw;
    const openedAt = Date.now();
    const finish = (why: string) => {
      if (stream.closed) return;
      streams.unregister(stream);
      leases.release(leaseId);
      // One line per stream, when it ends (never one per event or heartbeat).
      request.log.info({ url: request.url, ms: Date.now() - openedAt }, why);
    };
    // The stream is registered (queueing live events) and its place in the log (with the
    // user's boards at that place) is read before the answer starts: a client holding the
    // response headers may change a task at once, and that event must land after the
    // position, not be skipped by it.
    const stream: Stream = {
      raw,
      email: user.email,
      userId: user.id,
      language: requestLanguage(request),
      sessionId,
      lastId: 0,
      boards: new Set(),
      pending: [],
      started: false,
      closed: false,
      end() {
        finish('event stream ended with its session');
        // Not started yet: the opening below sees it closed and answers 503 instead.
        if (stream.started) raw.end();
      },
    };
    raw.once('close', () => {
      finish('event stream closed');
    });
    streams.register(stream);
    let start: StreamStart;
    try {
      start = await log.startFor(user.id);
    } catch (error) {
      streams.unregister(stream);
      leases.release(leaseId);
      throw error;
    }
    if (stream.closed) {
      // Shutdown began (or the client left) while the position was read: no stream to start.
      leases.release(leaseId);
      throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
    }
    startEventStream(reply);
    stream.started = true;
    raw.write(RETRY_FRAME);
    try {
      await catchUp(stream, after, start);
    } catch (error) {
      logger.warn({ err: error }, 'Could not start an event stream');
      raw.end();
      return;
    }
    streams.goLive(stream);
  };
}
