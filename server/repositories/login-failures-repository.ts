import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { newId } from '../db/ids.ts';

export function createLoginFailuresRepository(db: Kysely<DB>) {
  return {
    /** Failures for the address after `since`, and the oldest of them (when the lock lifts). */
    async windowSince(email: string, since: string, ex: Executor = db): Promise<{ count: number; oldest: string | null }> {
      const row = await ex
        .selectFrom('loginFailures')
        .select((eb) => [eb.cast<number>(eb.fn.countAll(), 'integer').as('count'), eb.fn.min<string | null>('failedAt').as('oldest')])
        .where('email', '=', email)
        .where('failedAt', '>', since)
        .executeTakeFirstOrThrow();
      return { count: row.count, oldest: row.oldest };
    },

    /** Records one failure and drops the address's failures that left the window. */
    async record(email: string, at: string, windowStart: string, ex: Executor = db): Promise<void> {
      await ex.insertInto('loginFailures').values({ id: newId(), email, failedAt: at }).execute();
      await ex.deleteFrom('loginFailures').where('email', '=', email).where('failedAt', '<=', windowStart).execute();
    },

    /** Housekeeping: failures of every address from before `before`. */
    async deleteBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('loginFailures').where('failedAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async clear(email: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('loginFailures').where('email', '=', email).execute();
    },
  };
}

export type LoginFailuresRepository = ReturnType<typeof createLoginFailuresRepository>;
