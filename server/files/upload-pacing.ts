import { pipeline, type Readable, Transform } from 'node:stream';

/**
 * The bytes of uploads take turns with everything else the process does.
 *
 * Node reads every socket with data waiting, one after the other, in each turn of its event
 * loop, up to 32 reads of 64 KiB each per socket. With twenty uploads arriving over a fast
 * network that was megabytes of parsing, counting and writing in a single turn, and a request
 * for a page of tasks that arrived beside them waited for all of it, and again for each of its
 * database answers. Here each upload's bytes pass through `paceUpload` before they are stored:
 * the uploads of a process get TURN_BYTES between them per turn, and a chunk past that waits for
 * the next turn (`setImmediate`), first come first served. The sockets' backpressure holds the
 * rest of the sender's bytes in the kernel meanwhile, so nothing piles up in memory, and every
 * turn has room for other requests
 * (docs/decisions/170-uploads-take-turns-with-requests.md).
 */

/** Upload bytes a process handles per turn of its event loop: one socket read's worth, about 0.1 ms of CPU. */
export const TURN_BYTES = 64 * 1024;

interface Waiting {
  bytes: number;
  go: () => void;
}

let spent = 0;
let waiting: Waiting[] = [];
let turnEndScheduled = false;

function scheduleTurnEnd(): void {
  if (turnEndScheduled) return;
  turnEndScheduled = true;
  setImmediate(endTurn);
}

/** A new turn: the chunks waiting longest go first, as many as its budget holds (at least one). */
function endTurn(): void {
  turnEndScheduled = false;
  spent = 0;
  let ready = 0;
  for (const chunk of waiting) {
    if (ready > 0 && spent >= TURN_BYTES) break;
    spent += chunk.bytes;
    ready += 1;
  }
  const go = waiting.slice(0, ready);
  waiting = waiting.slice(ready);
  if (spent > 0) scheduleTurnEnd();
  for (const chunk of go) chunk.go();
}

/**
 * Accounts for `bytes` of an upload about to be handled: `undefined` while this turn has room for
 * them (handle them now), else a promise that resolves in a later turn that has.
 */
export function paceUpload(bytes: number): Promise<void> | undefined {
  scheduleTurnEnd();
  if (waiting.length === 0 && spent < TURN_BYTES) {
    spent += bytes;
    return undefined;
  }
  return new Promise((resolve) => {
    waiting.push({ bytes, go: resolve });
  });
}

/**
 * Resolves in the next turn of the event loop, after the I/O waiting now (requests that have
 * arrived, database answers) has been handled. An upload's own database writes start this way:
 * on SQLite a transaction runs start to commit without giving the loop a turn, and uploads that
 * finish together (twenty started together finish within milliseconds of each other) queued
 * behind one another and ran back to back, 20–60 ms in which no request was read. Starting each
 * in a turn of its own lets the requests that arrived meanwhile go first.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `body`'s bytes as they take turns (`paceUpload`); an error of `body` is the returned stream's. */
export function paced(body: Readable): Readable {
  const turns = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const turn = paceUpload(chunk.length);
      if (turn === undefined) callback(null, chunk);
      else void turn.then(() => {
        callback(null, chunk);
      });
    },
  });
  return pipeline(body, turns, () => undefined);
}
