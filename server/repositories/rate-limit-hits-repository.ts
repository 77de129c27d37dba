import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

export function createRateLimitHitsRepository(db: Kysely<DB>) {
  return {
    /** How many hits `key` has after `since`, and the oldest of them. */
    async window(key: string, since: string, ex: Executor = db): Promise<{ count: number; oldest: string | null }> {
      const row = await ex
        .selectFrom('rateLimitHits')
        .select((eb) => [eb.cast<number>(eb.fn.countAll(), 'integer').as('count'), eb.fn.min('hitAt').as('oldest')])
        .where('key', '=', key)
        .where('hitAt', '>', since)
        .executeTakeFirst();
      return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
    },

    async insert(hit: { id: string; key: string; hitAt: string }, ex: Executor = db): Promise<void> {
      await ex.insertInto('rateLimitHits').values(hit).execute();
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('rateLimitHits').where('id', '=', id).execute();
    },

    /** Housekeeping: hits older than every window. */
    async deleteBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('rateLimitHits').where('hitAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
