import type { FastifyBaseLogger } from 'fastify';
import type { EventsRepository, LoggedEvent } from '../repositories/events-repository.ts';
import { LOG_PAGE } from './policy.ts';

/**
 * The one reader of the event log per instance: it keeps a cursor (the last id it delivered)
 * and, when woken, reads the rows after it in id order and hands each to `onEvent`. Wakes that
 * arrive during a read make it read once more when it ends, never twice at once.
 */
export function createLogReader(log: EventsRepository, onEvent: (event: LoggedEvent) => void, logger: FastifyBaseLogger) {
  let cursor = 0;
  let stopped = false;
  /** `again`: a wake arrived during a read, so read once more when it ends. */
  const reader = { busy: false, again: false };
  // A function, so the compiler does not narrow `reader.again` to the value set in the loop.
  const readAgain = () => reader.again && !stopped;

  async function read(): Promise<void> {
    if (reader.busy) {
      reader.again = true;
      return;
    }
    reader.busy = true;
    try {
      do {
        reader.again = false;
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
    /** Reads what is new since the cursor (in the background). */
    wake: () => {
      if (!stopped) void read();
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
