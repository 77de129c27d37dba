import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** A remembered answer: the call it answered and what was sent. */
export interface StoredAnswer {
  scope: string;
  status: number;
  body: string;
}

/** Rows the housekeeping deletes per statement, so no sweep holds locks on many rows at once. */
export const IDEMPOTENCY_SWEEP_BATCH = 1000;

/**
 * The answers to creates sent with an `Idempotency-Key` (migration 0016), one per person and
 * key. A row counts while its `created_at` is after the `since` a caller passes (24 hours ago).
 */
export function createIdempotencyRepository(db: Kysely<DB>) {
  return {
    /** The answer remembered for the person's key, if it was written after `since`. */
    async find(userId: string, key: string, since: string, ex: Executor = db): Promise<StoredAnswer | undefined> {
      return ex
        .selectFrom('idempotencyKeys')
        .select(['scope', 'status', 'body'])
        .where('userId', '=', userId)
        .where('key', '=', key)
        .where('createdAt', '>', since)
        .executeTakeFirst();
    },

    /**
     * Takes the key for a create about to be written in the transaction `ex`: inserts its row
     * (without an answer yet; `answer` fills it in before the commit), or takes over a row of
     * the key written before `since`. False when a live row holds the key. A concurrent
     * transaction that inserted the same key first makes this statement wait until it ends
     * (the primary key's unique index), so a loser sees the winner's committed answer.
     */
    async claim(row: { userId: string; key: string; scope: string; createdAt: string }, since: string, ex: Executor): Promise<boolean> {
      const taken = await ex
        .insertInto('idempotencyKeys')
        .values({ ...row, status: 0, body: '' })
        .onConflict((oc) =>
          oc
            .columns(['userId', 'key'])
            .doUpdateSet({ scope: row.scope, status: 0, body: '', createdAt: row.createdAt })
            .where('idempotencyKeys.createdAt', '<=', since),
        )
        .returning('key')
        .executeTakeFirst();
      return taken !== undefined;
    },

    /** The answer of the create that claimed the key, in the same transaction. */
    async answer(userId: string, key: string, status: number, body: string, ex: Executor): Promise<void> {
      await ex.updateTable('idempotencyKeys').set({ status, body }).where('userId', '=', userId).where('key', '=', key).execute();
    },

    /** Deleting an account: its keys (the user row stays as a nameplate, so they do not cascade). */
    async deleteOfUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('idempotencyKeys').where('userId', '=', userId).execute();
    },

    /** Housekeeping: the rows written before `before`, IDEMPOTENCY_SWEEP_BATCH per statement; how many went. */
    async deleteBefore(before: string, ex: Executor = db): Promise<number> {
      let deleted = 0;
      for (;;) {
        const result = await ex
          .deleteFrom('idempotencyKeys')
          .where((eb) =>
            eb(
              eb.refTuple('userId', 'key'),
              'in',
              eb
                .selectFrom('idempotencyKeys')
                .select(['userId', 'key']).where('createdAt', '<', before)
                .limit(IDEMPOTENCY_SWEEP_BATCH)
                .$asTuple('userId', 'key'),
            ),
          )
          .executeTakeFirst();
        const count = Number(result.numDeletedRows);
        deleted += count;
        if (count < IDEMPOTENCY_SWEEP_BATCH) return deleted;
      }
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
