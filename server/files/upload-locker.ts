import { ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';

/** How long a request waits for an upload's lock (@tus/server's own default) before it fails. */
const ACQUIRE_TIMEOUT_MS = 30_000;
/** How often a waiting request asks PostgreSQL again. */
const RETRY_MS = 50;
/** Uploads written at once by one instance (each holds a connection of its own while it writes). */
const MAX_LOCK_CONNECTIONS = 20;

/**
 * The key of an upload's lock: per schema, like the app's other advisory locks, so apps on
 * other schemas of the same database never wait for each other.
 */
const TRY_LOCK_SQL = "select pg_try_advisory_lock(hashtextextended('taskwise.upload.' || current_schema() || '.' || $1, 0)) as locked";
const UNLOCK_SQL = "select pg_advisory_unlock(hashtextextended('taskwise.upload.' || current_schema() || '.' || $1, 0))";

/**
 * One upload's lock across instances: first @tus/server's in-process lock (a newer request for
 * the upload asks the one holding it to stop, as tus expects), then a PostgreSQL session-level
 * advisory lock held on a connection of its own until `unlock`. While another instance holds
 * it, the lock is asked for again every 50 ms until the timeout or the request's end.
 */
class AdvisoryLock implements Lock {
  readonly #id: string;
  readonly #local: Lock;
  readonly #pool: pg.Pool;
  readonly #timeoutMs: number;
  #client: pg.PoolClient | undefined;

  constructor(id: string, local: Lock, pool: pg.Pool, timeoutMs: number) {
    this.#id = id;
    this.#local = local;
    this.#pool = pool;
    this.#timeoutMs = timeoutMs;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.#local.lock(signal, requestRelease);
    try {
      const client = await this.#pool.connect();
      try {
        const deadline = Date.now() + this.#timeoutMs;
        for (;;) {
          const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK_SQL, [this.#id]);
          if (rows[0]?.locked === true) {
            this.#client = client;
            return;
          }
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server's own error, as its MemoryLocker throws it
          if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          await sleep(RETRY_MS);
        }
      } catch (error) {
        client.release();
        throw error;
      }
    } catch (error) {
      await this.#local.unlock();
      throw error;
    }
  }

  async unlock(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    try {
      if (client !== undefined) {
        try {
          await client.query(UNLOCK_SQL, [this.#id]);
          client.release();
        } catch (error) {
          // A session lock ends with its connection: the connection is closed instead of reused.
          client.release(error as Error);
        }
      }
    } finally {
      await this.#local.unlock();
    }
  }
}

/**
 * The locker of resumable uploads, so that two requests writing one upload never interleave.
 * SQLite serves one process, where @tus/server's MemoryLocker is enough; PostgreSQL may serve
 * several instances, which share advisory locks (docs/decisions/150-upload-locks-in-postgresql.md).
 */
export function createUploadLocker(database: DatabaseConfig, options: { acquireTimeoutMs?: number } = {}): { locker: Locker; close: () => Promise<void> } {
  const timeoutMs = options.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS;
  const memory = new MemoryLocker({ acquireLockTimeout: timeoutMs });
  if (database.kind === 'sqlite') return { locker: memory, close: () => Promise.resolve() };
  // Created lazily by pg: no connection until the first upload.
  const pool = new pg.Pool({ connectionString: database.url, max: MAX_LOCK_CONNECTIONS, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000 });
  // An idle connection that drops must not crash the process; the next lock opens another.
  pool.on('error', () => undefined);
  return {
    locker: { newLock: (id) => new AdvisoryLock(id, memory.newLock(id), pool, timeoutMs) },
    close: () => pool.end(),
  };
}
