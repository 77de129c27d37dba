import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB, OtpCodesTable } from '../db/schema.ts';

export interface OtpRequestStats {
  count: number;
  newest: string | null;
  oldest: string | null;
}

export function createOtpCodesRepository(db: Kysely<DB>) {
  return {
    /** How many codes were requested for the address since `since`, and when. */
    async statsSince(email: string, purpose: string, since: string, ex: Executor = db): Promise<OtpRequestStats> {
      const row = await ex
        .selectFrom('otpCodes')
        .select((eb) => [
          eb.cast<number>(eb.fn.countAll(), 'integer').as('count'),
          eb.fn.max<string | null>('createdAt').as('newest'),
          eb.fn.min<string | null>('createdAt').as('oldest'),
        ])
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('createdAt', '>', since)
        .executeTakeFirstOrThrow();
      return row;
    },

    /** The code that counts: only the newest one for the address can be used. */
    async latest(email: string, purpose: string, ex: Executor = db): Promise<OtpCodesTable | undefined> {
      return ex
        .selectFrom('otpCodes')
        .selectAll()
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async insert(code: OtpCodesTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('otpCodes').values(code).execute();
    },

    /** A new code replaces the old ones: every other still-usable one is retired. */
    async retireActiveExcept(email: string, purpose: string, keepId: string, now: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('otpCodes')
        .set({ consumedAt: now })
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('consumedAt', 'is', null)
        .where('id', '<>', keepId)
        .execute();
    },

    /**
     * Spends one of the code's tries before the comparison, atomically: false when none is left
     * (or the code is used or expired). So a burst of guesses gets at most `maxTries` comparisons.
     */
    async spendTry(id: string, now: string, maxTries: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('otpCodes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('attempts', '<', maxTries)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /** Marks the code used if it still is unused and unexpired; false when someone else got there first. */
    async consume(id: string, now: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('otpCodes')
        .set({ consumedAt: now })
        .where('id', '=', id)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('otpCodes').where('id', '=', id).execute();
    },

    /** Housekeeping: codes of every address created before `before`. */
    async deleteCreatedBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('otpCodes').where('createdAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Rows older than every window they matter for (the hourly cap is the longest). */
    async deleteOlderThan(email: string, purpose: string, before: string, ex: Executor = db): Promise<void> {
      await ex
        .deleteFrom('otpCodes')
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('createdAt', '<=', before)
        .execute();
    },
  };
}

export type OtpCodesRepository = ReturnType<typeof createOtpCodesRepository>;
