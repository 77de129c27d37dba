import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

export function createThrottleLocksRepository(db: Kysely<DB>) {
  return {
    /**
     * Takes the lock row of `key` for the rest of the transaction `trx`: concurrent transactions
     * taking the same key wait (PostgreSQL row lock; SQLite runs one transaction at a time).
     */
    async take(key: string, now: string, trx: Executor): Promise<void> {
      await trx
        .insertInto('throttleLocks')
        .values({ key, touchedAt: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ touchedAt: now }))
        .execute();
    },

    /** Housekeeping: keys not used since `before`. */
    async deleteUntouchedSince(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('throttleLocks').where('touchedAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ThrottleLocksRepository = ReturnType<typeof createThrottleLocksRepository>;
