import type { FastifyBaseLogger } from 'fastify';
import type { EventsRepository, LoggedEvent } from '../repositories/events-repository.ts';
import { LOG_PAGE } from './policy.ts';

export interface LogReaderOptions {
  /** Whether any stream is registered on this instance (catching up or live): someone to deliver to. */
  hasStreams: () => boolean;
  /**
   * Whether a wake that names no event id is followed by one that does (PostgreSQL: every
   * commit's NOTIFY carries its last event id to every instance, this one included), so such a
   * wake may be skipped while no stream is open.
   */
  notifiesIds: boolean;
}

/**
 * The one reader of the event log per instance: it keeps a cursor (the last id it delivered)
 * and, when woken, reads the rows after it in id order and hands each to `onEvent`. Wakes that
 * arrive during a read make it read once more when it ends, never twice at once.
 *
 * A wake may name `upTo`, the last event id of a commit (a NOTIFY's payload). Ids become
 * visible in id order (repositories/events-repository.ts, appendEvent), so every id up to it is
 * final then: a wake whose `upTo` the cursor has reached reads nothing (the NOTIFY of a commit
 * this instance already read after its own wake-up), and with no stream open the cursor moves
 * to `upTo` without reading rows nobody would receive. A wake without an id while no stream is
 * open is skipped where an id follows (`notifiesIds`); a stream that opens later starts from
 * its own place in the log (events/serve.ts) and the cursor is at most a few commits behind.
 */
export function createLogReader(log: EventsRepository, onEvent: (event: LoggedEvent) => void, logger: FastifyBaseLogger, options: LogReaderOptions) {
  let cursor = 0;
  let stopped = false;
  /**
   * `again`: a wake without an id arrived during a read, so read once more when it ends;
   * `againUpTo`: the highest id named by wakes during a read (read again unless it got there).
   */
  const reader = { busy: false, again: false, againUpTo: 0 };
  // A function, so the compiler does not narrow the fields to the values set in the loop.
  const readAgain = () => !stopped && (reader.again || reader.againUpTo > cursor);

  async function read(): Promise<void> {
    reader.busy = true;
    try {
      do {
        reader.again = false;
        reader.againUpTo = 0;
        for (;;) {
          const events = await log.listAfter(cursor, LOG_PAGE);
          for (const event of events) onEvent(event);
          cursor = events.at(-1)?.id ?? cursor;
          if (events.length < LOG_PAGE) break;
        }
      } while (readAgain());
    } catch (error) {
      // The next wake, notification or poll reads again from the same cursor.
      logger.warn({ err: error }, 'Reading the event log failed');
    } finally {
      reader.busy = false;
    }
  }

  return {
    /** Reads what is new since the cursor (in the background); `upTo`: a commit's last event id, when known. */
    wake: (upTo?: number) => {
      if (stopped) return;
      const id = upTo !== undefined && Number.isSafeInteger(upTo) && upTo > 0 ? upTo : undefined;
      if (id !== undefined && id <= cursor) return;
      if (reader.busy) {
        if (id === undefined) reader.again = true;
        else reader.againUpTo = Math.max(reader.againUpTo, id);
        return;
      }
      if (!options.hasStreams()) {
        if (id !== undefined) {
          cursor = id;
          return;
        }
        if (options.notifiesIds) return;
      }
      void read();
    },
    /** Starts at the current end of the log: what came before was never this instance's to send. */
    async start() {
      cursor = (await log.bounds()).max;
    },
    /** The last id read (0 before the first event). */
    get cursor() {
      return cursor;
    },
    stop() {
      stopped = true;
    },
  };
}
