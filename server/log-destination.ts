import { writeSync } from 'node:fs';

/** What pino needs of a destination: `write`, and `flush` for `logger.flush()`. */
export interface LogDestination {
  write(line: string): void;
  flush(callback?: (error?: Error) => void): void;
  /** Writes what is gathered now, synchronously. */
  flushSync(): void;
}

/** While a non-blocking pipe is full: wait this long before trying again. */
const FULL_PIPE_WAIT_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): void {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    try {
      const written = writeSync(fd, rest);
      rest = rest.subarray(written);
    } catch (error) {
      // A pipe another process made non-blocking answers EAGAIN while full: wait for the
      // reader rather than drop lines (a blocking write would wait the same way).
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(sleeper, 0, 0, FULL_PIPE_WAIT_MS);
    }
  }
}

const destinations = new Map<number, LogDestination>();

/**
 * The JSON log's destination on file descriptor `fd` (1: standard output): the lines logged
 * during one turn of the event loop are written together, with one synchronous `write`, as soon
 * as that turn's I/O callbacks are done (`setImmediate`). Under load a turn answers several
 * requests, so their log lines cost one system call; on an idle server a line goes out at once.
 *
 * pino's own destination (sonic-boom) either writes every line with its own system call
 * (`sync: true`) or hands every write to libuv's thread pool (`sync: false`), a thread hop and
 * a wake-up per write; gathering per turn halves the cost of a request's log line
 * (docs/performance.md, "The request log").
 *
 * One destination per descriptor and process (tests build many apps in one process): lines of
 * every app stay in order, and what is gathered is written when the process exits.
 */
export function logDestination(fd = 1): LogDestination {
  const existing = destinations.get(fd);
  if (existing !== undefined) return existing;
  let pending: string[] = [];
  let scheduled = false;
  const flushSync = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    writeAll(fd, text);
  };
  const destination: LogDestination = {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushSync);
      }
    },
    flush(callback) {
      try {
        flushSync();
        callback?.();
      } catch (error) {
        callback?.(error as Error);
      }
    },
    flushSync,
  };
  process.on('exit', flushSync);
  destinations.set(fd, destination);
  return destination;
}
