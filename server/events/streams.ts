import type { ServerResponse } from 'node:http';
import { isBoardEvent, type LoggedEvent } from '../repositories/events-repository.ts';
import { boardChangeOf, viewOf } from './addressing.ts';
import { MAX_BUFFERED_BYTES } from './policy.ts';
import type { ReaderLanguage } from '../i18n/translate.ts';
import { notificationFrame } from './notification-frames.ts';
import { frame } from './sse.ts';

/** One open `GET /api/events` answer on this instance. */
export interface Stream {
  raw: ServerResponse;
  email: string;
  userId: string;
  /** The language its notifications are said in (the account's, as a request's answers are). */
  language: ReaderLanguage;
  /** The session it was opened with: the stream ends with it. */
  sessionId: string;
  /** Ends the stream from the server's side (unregisters it, frees its lease, ends the answer). */
  end(): void;
  /** The last event id written to (or skipped for) this stream. */
  lastId: number;
  /**
   * The boards whose task events it receives (its user is an active member): as of `lastId`,
   * changed by the `board.added` and `board.removed` events addressed to it as they pass.
   */
  boards: Set<string>;
  /** Every event that arrived while the stream was catching up (sorted out when it goes live); null once it is live. */
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
 * This instance's open streams, found by the boards and the address they listen for (events)
 * and by their session and user (ending them), and the writing to them: an event goes to the
 * streams it means something to (events/addressing.ts), once each, in id order. A stream that
 * is catching up queues every event and sorts them out when it goes live.
 */
export function createStreamRegistry() {
  const byEmail: Groups = new Map();
  const byBoard: Groups = new Map();
  const bySession: Groups = new Map();
  const byUser: Groups = new Map();
  const catchingUp = new Set<Stream>();
  let open = 0;

  const write = (stream: Stream, text: string) => {
    if (stream.closed || !stream.started) return;
    stream.raw.write(text);
    if (stream.raw.writableLength > MAX_BUFFERED_BYTES) stream.raw.end();
  };

  /** Writes what `event` means to `stream`, unless the stream has it already (replay and live can overlap). */
  const deliver = (stream: Stream, event: LoggedEvent) => {
    if (event.id <= stream.lastId) return;
    stream.lastId = event.id;
    const change = boardChangeOf(event, stream.email);
    if (change !== undefined) {
      const live = stream.pending === null && !stream.closed;
      if (change.added) {
        stream.boards.add(change.boardId);
        if (live) addTo(byBoard, change.boardId, stream);
      } else {
        stream.boards.delete(change.boardId);
        if (live) removeFrom(byBoard, change.boardId, stream);
      }
    }
    const type = viewOf(event, stream);
    if (type !== undefined) write(stream, type === 'notification.created' ? notificationFrame(event, stream.language) : frame(event, type));
  };

  const deliverToLive = (streams: Set<Stream> | undefined, event: LoggedEvent) => {
    if (streams === undefined) return;
    for (const stream of streams) if (stream.pending === null) deliver(stream, event);
  };

  return {
    get open() {
      return open;
    },
    write,
    deliver,

    /** Fans one event of the log out to this instance's streams (in id order: the log reader calls it so). */
    dispatch: (event: LoggedEvent) => {
      for (const stream of catchingUp) stream.pending?.push(event);
      if (!isBoardEvent(event.type)) {
        if (event.boardId !== null) deliverToLive(byBoard.get(event.boardId), event);
        if (event.fromBoardId !== null) deliverToLive(byBoard.get(event.fromBoardId), event);
      }
      for (const email of event.audience) deliverToLive(byEmail.get(email), event);
      for (const email of event.fromAudience ?? []) deliverToLive(byEmail.get(email), event);
    },

    /** Adds a new stream, catching up: it queues every event until `goLive`. */
    register(stream: Stream) {
      stream.pending ??= [];
      catchingUp.add(stream);
      addTo(byEmail, stream.email, stream);
      addTo(bySession, stream.sessionId, stream);
      addTo(byUser, stream.userId, stream);
      open += 1;
    },

    /** Ends a stream's catching up: delivers what it queued, then it is found by its boards. */
    goLive(stream: Stream) {
      for (const event of stream.pending ?? []) deliver(stream, event);
      stream.pending = null;
      catchingUp.delete(stream);
      if (stream.closed) return;
      for (const boardId of stream.boards) addTo(byBoard, boardId, stream);
    },

    unregister(stream: Stream) {
      if (stream.closed) return;
      stream.closed = true;
      open -= 1;
      catchingUp.delete(stream);
      if (stream.pending === null) for (const boardId of stream.boards) removeFrom(byBoard, boardId, stream);
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
