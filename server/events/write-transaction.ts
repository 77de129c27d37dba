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
