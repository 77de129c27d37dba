import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createStreamLeases } from '../events/leases.ts';
import { createLogListener } from '../events/listener.ts';
import { createLogReader } from '../events/log-reader.ts';
import { HEARTBEAT_MS, POLL_MS, SESSION_CHECK_MS } from '../events/policy.ts';
import { createStreamOpener } from '../events/serve.ts';
import { createSessionCheck } from '../events/session-check.ts';
import { HEARTBEAT_FRAME } from '../events/sse.ts';
import { createStreamRegistry } from '../events/streams.ts';
import { createWriteStatement, createWriteTransaction } from '../events/write-transaction.ts';
import { createEventsRepository, type EventTransaction } from '../repositories/events-repository.ts';
import type { AuthUser } from './session.ts';

export interface EventsService {
  /**
   * Runs `fn` in a database transaction and wakes this instance's streams after the commit.
   * The transaction it hands to `fn` is the only kind `appendEvent` accepts, so every write
   * that appends events goes through here.
   */
  transaction<T>(fn: (trx: EventTransaction) => Promise<T>): Promise<T>;
  /**
   * For a write that is one statement on the pool (PostgreSQL, where a statement is its own
   * transaction): hands `fn` the pool as an EventTransaction and wakes the streams afterwards.
   */
  statement<T>(fn: (ex: EventTransaction) => Promise<T>): Promise<T>;
  /** Serves `GET /api/events` for the signed-in `user` (takes over the reply). */
  serve(request: FastifyRequest, reply: FastifyReply, user: AuthUser): Promise<void>;
  /** Writes the heartbeat comment to every stream and renews their leases (also run by a timer). */
  heartbeat(): Promise<void>;
  /** Open streams on this instance. */
  readonly openStreams: number;
  /**
   * The newest event's id in the log. Every change that other people can see writes an event,
   * so an unchanged id means nothing changed anywhere since it was read (on any instance).
   */
  latestId(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventsService;
  }
}

/**
 * The live board: the durable event log (repositories/events-repository.ts) read by one reader
 * per instance (events/log-reader.ts) and fanned out to this instance's streams
 * (events/streams.ts). The reader is woken after a local commit (events/write-transaction.ts),
 * by the NOTIFY of any instance (PostgreSQL, events/listener.ts) and by a slow poll as a safety
 * net. Streams are opened by events/serve.ts and leased in the database (events/leases.ts);
 * a stream ends with its session (events/session-check.ts).
 */
export default fp(
  (fastify, _opts, done) => {
    const log = createEventsRepository(fastify.db);
    const streams = createStreamRegistry();
    const leases = createStreamLeases(fastify);
    const reader = createLogReader(log, streams.dispatch, fastify.log, { hasStreams: () => streams.open > 0, notifiesIds: fastify.config.database.kind === 'postgres' });
    /** A wake-up that names no event id (a local commit's, the poll's). */
    const wake = () => {
      reader.wake();
    };
    const database = fastify.config.database;
    const listener =
      database.kind === 'postgres'
        ? createLogListener({
            url: database.url,
            channel: () => log.channel(),
            onNotify: reader.wake,
            failFast: () => reader.cursor === 0 && !fastify.server.listening,
            logger: fastify.log,
          })
        : undefined;
    let closing = false;
    const timers: NodeJS.Timeout[] = [];
    // A stream ends with the session it was opened with: at once when this instance ends the
    // session, within SESSION_CHECK_MS when it ends anywhere else or runs out.
    fastify.sessions.onEnd((ended) => {
      if ('sessionId' in ended) streams.endSession(ended.sessionId);
      else streams.endSessionsOf(ended.userId, ended.exceptSessionId);
    });
    const checkSessions = createSessionCheck(leases, streams, fastify.log);

    const service: EventsService = {
      transaction: createWriteTransaction(fastify.db, wake),
      statement: createWriteStatement(fastify.db, wake),
      serve: createStreamOpener({ log, streams, leases, logger: fastify.log, closing: () => closing, sessionIdOf: (request) => fastify.sessions.idOf(request) }),
      get openStreams() {
        return streams.open;
      },
      latestId: () => log.latestId(),
      async heartbeat() {
        if (streams.open === 0) return;
        for (const stream of streams.all()) streams.write(stream, HEARTBEAT_FRAME);
        await leases.renew();
      },
    };
    fastify.decorate('events', service);
    fastify.metrics.gauge({
      name: 'taskwise_event_streams_open',
      help: 'Open GET /api/events streams on this instance.',
      collect: (gauge) => {
        gauge.set(service.openStreams);
      },
    });

    const every = (ms: number, run: () => void) => {
      const timer = setInterval(run, ms);
      timer.unref();
      timers.push(timer);
    };

    fastify.addHook('onReady', async () => {
      await reader.start();
      await listener?.start();
      every(HEARTBEAT_MS, () => {
        service.heartbeat().catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Event stream heartbeat failed');
        });
      });
      every(POLL_MS[fastify.dbDialect], wake);
      every(SESSION_CHECK_MS, () => void checkSessions());
    });

    // Streams never finish on their own: end them first, so the server can close promptly.
    fastify.addHook('preClose', async () => {
      closing = true;
      reader.stop();
      for (const timer of timers) clearInterval(timer);
      for (const stream of streams.all()) {
        streams.unregister(stream);
        // A stream whose answer has not started yet is refused by serve() itself.
        if (stream.started) stream.raw.end();
      }
      await listener?.close();
      await leases.releaseAll().catch(() => undefined);
    });
    done();
  },
  { name: 'events', dependencies: ['db', 'repositories', 'metrics', 'session'] },
);
