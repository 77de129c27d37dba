import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** The writes of deleting an account that touch other features' tables. */
export function createAccountRepository(db: Kysely<DB>) {
  return {
    /** Tasks nobody else can see: created by the user and assigned to their own address. */
    async deletePrivateTasks(userId: string, email: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('tasks').where('createdBy', '=', userId).where('assigneeEmail', '=', email).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Every comment the user wrote, oldest first, for the data export. */
    async commentsBy(userId: string, ex: Executor = db) {
      const rows = await ex
        .selectFrom('comments')
        .select(['id', 'taskId', 'body', 'createdAt', 'updatedAt'])
        .where('authorId', '=', userId)
        .orderBy('seq')
        .execute();
      return rows.map(({ id, ...rest }) => ({ _id: id, ...rest }));
    },

    /** One-time codes and sign-in failures recorded for the address. */
    async deleteAddressRecords(email: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('otpCodes').where('email', '=', email).execute();
      await ex.deleteFrom('loginFailures').where('email', '=', email).execute();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
