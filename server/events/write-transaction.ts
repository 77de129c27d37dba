import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import type { EventTransaction } from '../repositories/events-repository.ts';

/**
 * The only maker of an `EventTransaction`, the one kind of transaction `appendEvent` accepts:
 * it runs `fn` in a database transaction and calls `afterCommit` (which wakes this instance's
 * streams) once it has committed. Other instances are woken by the NOTIFY that appendEvent
 * sends (PostgreSQL) or by their poll.
 */
export function createWriteTransaction(db: Kysely<DB>, afterCommit: () => void) {
  return async function transaction<T>(fn: (trx: EventTransaction) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute((trx: Executor) => fn(trx as EventTransaction));
    afterCommit();
    return result;
  };
}

/**
 * The one-statement form of `transaction` (PostgreSQL): `fn` writes with exactly one statement
 * on the pool, which is its own transaction there (reads before it are fine), so the events it
 * appends commit with the rest of that statement; `afterCommit` wakes the streams once it is done.
 */
export function createWriteStatement(db: Kysely<DB>, afterCommit: () => void) {
  return async function statement<T>(fn: (ex: EventTransaction) => Promise<T>): Promise<T> {
    const result = await fn(db as EventTransaction);
    afterCommit();
    return result;
  };
}
