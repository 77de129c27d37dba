import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError } from '../errors.ts';
import { createEventStreamLeasesRepository } from '../repositories/event-stream-leases-repository.ts';
import { createEventsRepository, listen, type LoggedEvent } from '../repositories/events-repository.ts';
import type { AuthUser } from './session.ts';

/** The first and last ids the event log holds. */
interface LogBounds {
  min: number;
  max: number;
}

/** Open streams per user, across all instances (the next one answers 429). */
export const MAX_STREAMS_PER_USER = 20;
/** A comment line goes to every stream this often (at most 30 s apart, so proxies keep them open). */
export const HEARTBEAT_MS = 25_000;
/** A stream's lease outlives a missed heartbeat or two; an instance that died frees it after this. */
export const LEASE_MS = 90_000;
/** Events stay in the log at least this long, so a client reconnecting within it misses nothing. */
export const EVENT_RETENTION_MS = 10 * 60_000;
/** How often the log is read even without a notification: a safety net, never the main path. */
const POLL_MS = { sqlite: 1000, postgres: 5000 } as const;
const PAGE = 500;
/** A client that does not read is cut off (it reconnects with Last-Event-ID) rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** The browser's reconnect delay after a dropped stream. */
const RETRY_MS = 2000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

interface Stream {
  raw: ServerResponse;
  email: string;
  /** The last event id written to (or skipped for) this stream. */
  lastId: number;
  /** Events that arrived while the stream was catching up; null once it is live. */
  pending: LoggedEvent[] | null;
  /** False until the answer's headers are written: nothing may be written to it before. */
  started: boolean;
  closed: boolean;
}

export interface EventsService {
  /**
   * Runs `fn` in a database transaction and wakes this instance's streams after the commit.
   * Write paths that append events (appendEvent) use it; other instances are woken by the
   * NOTIFY that appendEvent sends (PostgreSQL).
   */
  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T>;
  /** Reads the log from where this instance stopped and delivers what is new. */
  wake(): void;
  /** Serves `GET /api/events` for the signed-in `user` (takes over the reply). */
  serve(request: FastifyRequest, reply: FastifyReply, user: AuthUser): Promise<void>;
  /** Writes the heartbeat comment to every stream and renews their leases (also run by a timer). */
  heartbeat(): Promise<void>;
  /** Open streams on this instance. */
  readonly openStreams: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventsService;
  }
}

const frame = (event: LoggedEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`;

/** `Last-Event-ID` as a log position; undefined when absent, NaN when it is not one of ours. */
function lastEventIdOf(request: FastifyRequest): number | undefined {
  const value = request.headers['last-event-id'];
  const header = Array.isArray(value) ? value.join(',') : value;
  if (header === undefined || header === '') return undefined;
  return /^\d{1,15}$/.test(header) ? Number(header) : Number.NaN;
}

/**
 * The live board: the durable event log (repositories/events-repository.ts) read by one reader
 * per instance and fanned out to this instance's streams.
 *
 * - Every instance keeps a cursor (the last log id it delivered) and, when woken, reads the
 *   rows after it in id order and writes each to the streams of its audience. It is woken after
 *   a local commit, by the NOTIFY of any instance (PostgreSQL: one LISTEN connection per
 *   instance, re-opened with back-off when it drops, followed by a catch-up read, so a lost
 *   notification delays an event but never loses it), and by a slow poll as a safety net.
 * - A stream that resumes (`Last-Event-ID`) first replays the log after its id, then goes live;
 *   events that arrive meanwhile wait in its queue, and ids already sent are skipped, so nothing
 *   is missed or sent twice. An id the log no longer covers gets `event: reset`.
 * - Open streams are leased in the database (MAX_STREAMS_PER_USER across instances).
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const log = createEventsRepository(fastify.db);
    const leases = createEventStreamLeasesRepository(fastify.db);
    const instanceId = randomBytes(12).toString('base64url');
    const byEmail = new Map<string, Set<Stream>>();
    let openStreams = 0;
    let cursor = 0;
    /** `again`: a wake arrived during a read, so read once more when it ends. */
    const reader = { busy: false, again: false };
    let closing = false;
    const timers: NodeJS.Timeout[] = [];
    let listener: { close(): Promise<void> } | undefined;
    let reconnectTimer: NodeJS.Timeout | undefined;

    const write = (stream: Stream, text: string) => {
      if (stream.closed || !stream.started) return;
      stream.raw.write(text);
      if (stream.raw.writableLength > MAX_BUFFERED_BYTES) stream.raw.end();
    };

    const deliver = (stream: Stream, event: LoggedEvent) => {
      if (event.id <= stream.lastId) return;
      stream.lastId = event.id;
      write(stream, frame(event));
    };

    const dispatch = (event: LoggedEvent) => {
      let text: string | undefined;
      for (const email of event.audience) {
        const streams = byEmail.get(email);
        if (streams === undefined) continue;
        for (const stream of streams) {
          if (stream.pending !== null) {
            stream.pending.push(event);
          } else if (event.id > stream.lastId) {
            stream.lastId = event.id;
            text ??= frame(event);
            write(stream, text);
          }
        }
      }
    };

    // A function, so the compiler does not narrow `reader.again` to the value set in the loop.
    const readAgain = () => reader.again && !closing;

    async function readLog(): Promise<void> {
      if (reader.busy) {
        reader.again = true;
        return;
      }
      reader.busy = true;
      try {
        do {
          reader.again = false;
          for (;;) {
            const events = await log.listAfter(cursor, PAGE);
            for (const event of events) dispatch(event);
            cursor = events.at(-1)?.id ?? cursor;
            if (events.length < PAGE) break;
          }
        } while (readAgain());
      } catch (error) {
        // The next wake, notification or poll reads again from the same cursor.
        fastify.log.warn({ err: error }, 'Reading the event log failed');
      } finally {
        reader.busy = false;
      }
    }
    const wake = () => {
      if (!closing) void readLog();
    };

    async function connectListener(attempt: number): Promise<void> {
      const database = fastify.config.database;
      if (closing || database.kind !== 'postgres') return;
      try {
        const channel = await log.channel();
        listener = await listen(database.url, channel, {
          onNotify: wake,
          onLost: (error) => {
            listener = undefined;
            if (closing) return;
            fastify.log.warn({ message: error?.message }, 'Event listener connection lost; reconnecting');
            scheduleReconnect(0);
          },
        });
        if (attempt > 0) fastify.log.info({ attempt }, 'Event listener reconnected');
        // Whatever was committed while nobody listened is in the log.
        wake();
      } catch (error) {
        if (attempt === 0 && cursor === 0 && !fastify.server.listening) throw error;
        fastify.log.warn({ message: (error as Error).message, attempt }, 'Event listener could not connect; retrying');
        scheduleReconnect(attempt + 1);
      }
    }
    function scheduleReconnect(attempt: number): void {
      if (closing) return;
      const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
      reconnectTimer = setTimeout(() => void connectListener(Math.max(1, attempt)), base / 2 + Math.random() * (base / 2));
      reconnectTimer.unref();
    }

    const register = (stream: Stream) => {
      let set = byEmail.get(stream.email);
      if (set === undefined) {
        set = new Set();
        byEmail.set(stream.email, set);
      }
      set.add(stream);
      openStreams += 1;
    };
    const unregister = (stream: Stream) => {
      if (stream.closed) return;
      stream.closed = true;
      openStreams -= 1;
      const set = byEmail.get(stream.email);
      set?.delete(stream);
      if (set?.size === 0) byEmail.delete(stream.email);
    };

    async function takeLease(user: AuthUser): Promise<string> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const id = randomBytes(12).toString('base64url');
      await fastify.db.transaction().execute(async (trx) => {
        // Serializes the count-then-insert per user across requests and instances.
        await fastify.throttleLocksRepository.take(`events:${user.id}`, nowIso, trx);
        if ((await leases.countLive(user.id, nowIso, trx)) >= MAX_STREAMS_PER_USER) {
          throw new AppError(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyStreams, undefined, { 'retry-after': '10' });
        }
        await leases.insert({ id, userId: user.id, instanceId, expiresAt: new Date(now.getTime() + LEASE_MS).toISOString() }, trx);
      });
      return id;
    }
    const releaseLease = (id: string) => {
      leases.delete(id).catch((error: unknown) => {
        fastify.log.warn({ err: error }, 'Could not release an event stream lease (it expires by itself)');
      });
    };

    /** Replays the log after `after` to `stream`, or sends a reset when the log no longer covers it. */
    async function catchUp(stream: Stream, after: number | undefined, { min, max }: LogBounds): Promise<void> {
      if (after === undefined) {
        // A fresh stream starts at the current end of the log; the id lets the browser resume
        // from here (an `id:` without `data:` sets the last event id without an event).
        stream.lastId = max;
        write(stream, `id: ${max}\n\n`);
        return;
      }
      const known = Number.isInteger(after) && after <= max && (max === 0 ? after === 0 : after >= min - 1);
      if (!known) {
        stream.lastId = max;
        write(stream, `id: ${max}\nevent: reset\ndata: {}\n\n`);
        return;
      }
      stream.lastId = after;
      for (;;) {
        const events = await log.listAfter(stream.lastId, PAGE);
        for (const event of events) {
          if (event.audience.includes(stream.email)) deliver(stream, event);
          else stream.lastId = event.id;
        }
        if (events.length < PAGE || stream.closed) break;
      }
    }

    const service: EventsService = {
      async transaction(fn) {
        const result = await fastify.db.transaction().execute(fn);
        wake();
        return result;
      },
      wake,
      get openStreams() {
        return openStreams;
      },

      async serve(request, reply, user) {
        if (closing) throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
        const after = lastEventIdOf(request);
        const leaseId = await takeLease(user);
        const raw = reply.raw;
        // The stream is registered (queueing live events) and its place in the log is read
        // before the answer starts: a client holding the response headers may change a task at
        // once, and that event must land after the position, not be skipped by it.
        const stream: Stream = { raw, email: user.email, lastId: 0, pending: [], started: false, closed: false };
        const openedAt = Date.now();
        raw.once('close', () => {
          if (stream.closed) return;
          unregister(stream);
          releaseLease(leaseId);
          // One line per stream, when it ends (never one per event or heartbeat).
          request.log.info({ url: request.url, ms: Date.now() - openedAt }, 'event stream closed');
        });
        register(stream);
        let bounds: LogBounds;
        try {
          bounds = await log.bounds();
        } catch (error) {
          unregister(stream);
          releaseLease(leaseId);
          throw error;
        }
        if (stream.closed) {
          // Shutdown began (or the client left) while the position was read: no stream to start.
          releaseLease(leaseId);
          throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
        }
        reply.hijack();
        raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          // nginx and similar proxies would otherwise hold events back in a buffer.
          'x-accel-buffering': 'no',
        });
        stream.started = true;
        raw.write(`retry: ${RETRY_MS}\n\n`);
        try {
          await catchUp(stream, after, bounds);
        } catch (error) {
          fastify.log.warn({ err: error }, 'Could not start an event stream');
          raw.end();
          return;
        }
        const pending = stream.pending ?? [];
        stream.pending = null;
        for (const event of pending) deliver(stream, event);
      },

      async heartbeat() {
        if (openStreams === 0) return;
        for (const streams of byEmail.values()) for (const stream of streams) write(stream, ': heartbeat\n\n');
        const expiresAt = new Date(clock.now().getTime() + LEASE_MS).toISOString();
        await leases.renewInstance(instanceId, expiresAt);
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

    fastify.addHook('onReady', async () => {
      cursor = (await log.bounds()).max;
      await connectListener(0);
      const beat = setInterval(() => {
        service.heartbeat().catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Event stream heartbeat failed');
        });
      }, HEARTBEAT_MS);
      const poll = setInterval(wake, POLL_MS[fastify.dbDialect]);
      beat.unref();
      poll.unref();
      timers.push(beat, poll);
    });

    // Streams never finish on their own: end them first, so the server can close promptly.
    fastify.addHook('preClose', async () => {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      clearTimeout(reconnectTimer);
      for (const streams of [...byEmail.values()]) {
        for (const stream of [...streams]) {
          unregister(stream);
          // A stream whose answer has not started yet is refused by serve() itself.
          if (stream.started) stream.raw.end();
        }
      }
      await listener?.close();
      await leases.deleteInstance(instanceId).catch(() => undefined);
    });
    done();
  },
  { name: 'events', dependencies: ['db', 'repositories', 'metrics'] },
);
