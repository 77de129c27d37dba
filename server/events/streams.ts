import type { ServerResponse } from 'node:http';
import type { LoggedEvent } from '../repositories/events-repository.ts';
import { MAX_BUFFERED_BYTES } from './policy.ts';
import { frame } from './sse.ts';

/** One open `GET /api/events` answer on this instance. */
export interface Stream {
  raw: ServerResponse;
  email: string;
  userId: string;
  /** The session it was opened with: the stream ends with it. */
  sessionId: string;
  /** Ends the stream from the server's side (unregisters it, frees its lease, ends the answer). */
  end(): void;
  /** The last event id written to (or skipped for) this stream. */
  lastId: number;
  /** Events that arrived while the stream was catching up; null once it is live. */
  pending: LoggedEvent[] | null;
  /** False until the answer's headers are written: nothing may be written to it before. */
  started: boolean;
  closed: boolean;
}

/** Streams grouped by one key (an address, a session, a user). */
type Groups = Map<string, Set<Stream>>;
function addTo(groups: Groups, key: string, stream: Stream) {
  let set = groups.get(key);
  if (set === undefined) {
    set = new Set();
    groups.set(key, set);
  }
  set.add(stream);
}
function removeFrom(groups: Groups, key: string, stream: Stream) {
  const set = groups.get(key);
  set?.delete(stream);
  if (set?.size === 0) groups.delete(key);
}

/**
 * This instance's open streams, found by the address they listen for (events) and by their
 * session and user (ending them), and the writing to them: an event goes to the streams of its
 * audience, once each, in id order.
 */
export function createStreamRegistry() {
  const byEmail: Groups = new Map();
  const bySession: Groups = new Map();
  const byUser: Groups = new Map();
  let open = 0;

  const write = (stream: Stream, text: string) => {
    if (stream.closed || !stream.started) return;
    stream.raw.write(text);
    if (stream.raw.writableLength > MAX_BUFFERED_BYTES) stream.raw.end();
  };

  return {
    get open() {
      return open;
    },
    write,

    /** Writes `event` unless the stream has it already (replay and live can overlap). */
    deliver(stream: Stream, event: LoggedEvent) {
      if (event.id <= stream.lastId) return;
      stream.lastId = event.id;
      write(stream, frame(event));
    },

    /** Fans one event of the log out to this instance's streams of its audience. */
    dispatch: (event: LoggedEvent) => {
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
    },

    register(stream: Stream) {
      addTo(byEmail, stream.email, stream);
      addTo(bySession, stream.sessionId, stream);
      addTo(byUser, stream.userId, stream);
      open += 1;
    },

    unregister(stream: Stream) {
      if (stream.closed) return;
      stream.closed = true;
      open -= 1;
      removeFrom(byEmail, stream.email, stream);
      removeFrom(bySession, stream.sessionId, stream);
      removeFrom(byUser, stream.userId, stream);
    },

    /** Ends the streams of one session. */
    endSession(sessionId: string) {
      for (const stream of [...(bySession.get(sessionId) ?? [])]) stream.end();
    },

    /** Ends the streams of every session of `userId` but `exceptSessionId`. */
    endSessionsOf(userId: string, exceptSessionId: string | null) {
      for (const stream of [...(byUser.get(userId) ?? [])]) if (stream.sessionId !== exceptSessionId) stream.end();
    },

    /** Every open stream, as a copy (safe to unregister while walking it). */
    all(): Stream[] {
      const streams: Stream[] = [];
      for (const set of byEmail.values()) streams.push(...set);
      return streams;
    },
  };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;
