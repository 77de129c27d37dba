import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** The writes of deleting an account that touch other features' tables. */
export function createAccountRepository(db: Kysely<DB>) {
  return {
    /**
     * The comments the user wrote, oldest first, for the data export: at most `limit`, after the
     * one numbered `afterSeq` (from the start when undefined). `seq` is where the next page starts.
     */
    async commentsBy(userId: string, afterSeq: number | undefined, limit: number, ex: Executor = db) {
      let q = ex
        .selectFrom('comments')
        .select(['seq', 'id', 'taskId', 'body', 'createdAt', 'updatedAt'])
        .where('authorId', '=', userId)
        .orderBy('seq')
        .limit(limit);
      if (afterSeq !== undefined) q = q.where('seq', '>', afterSeq);
      const rows = await q.execute();
      return rows.map(({ id, seq, ...rest }) => ({ seq, comment: { _id: id, ...rest } }));
    },

    /** One-time codes and sign-in failures recorded for the address. */
    async deleteAddressRecords(email: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('otpCodes').where('email', '=', email).execute();
      await ex.deleteFrom('loginFailures').where('email', '=', email).execute();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
