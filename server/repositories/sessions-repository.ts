import type { InferResult, Kysely } from 'kysely';
import { prepare, slot, type Executor, type ValuesOf } from '../db/prepared.ts';
import type { DB, SessionsTable } from '../db/schema.ts';

export interface SessionWithUser {
  userId: string;
  expiresAt: string;
  lastSeenAt: string;
  email: string;
  fullName: string;
  /** The account's language tag (`users.language`): what its answers are written in. */
  language: string;
}

export function createSessionsRepository(db: Kysely<DB>) {
  // The per-request check: one primary-key read joined to the user (also a primary key). Its
  // row comes back as an array, in the select list's order (docs/decisions/003-task-rows-read-as-arrays.md): it is read on every signed-in request.
  const sessionSelect = ['s.userId', 's.expiresAt', 's.lastSeenAt', 'u.email', 'u.fullName', 'u.language'] as const;
  const sessionWithUser = db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select(sessionSelect)
    .where('s.tokenHash', '=', slot('tokenHash'))
    // A deactivated account's sessions are deleted with the deactivation; this keeps one that
    // a sign-in racing it started from working.
    .where('u.deactivatedAt', 'is', null);
  const findWithUser = prepare<{ tokenHash: string }, ValuesOf<InferResult<typeof sessionWithUser>[number], typeof sessionSelect>>(sessionWithUser, {
    rowsAsArrays: true,
  });
  const touch = prepare<{ tokenHash: string; lastSeenAt: string; expiresAt: string }, never>(
    db
      .updateTable('sessions')
      .set({ lastSeenAt: slot('lastSeenAt'), expiresAt: slot('expiresAt') })
      .where('tokenHash', '=', slot('tokenHash')),
  );

  return {
    async findWithUser(tokenHash: string, ex: Executor = db): Promise<SessionWithUser | undefined> {
      const { rows } = await findWithUser.execute(ex, { tokenHash });
      const row = rows[0];
      if (row === undefined) return undefined;
      const [userId, expiresAt, lastSeenAt, email, fullName, language] = row;
      return { userId, expiresAt, lastSeenAt, email, fullName, language };
    },

    async insert(session: SessionsTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('sessions').values(session).execute();
    },

    async touch(tokenHash: string, lastSeenAt: string, expiresAt: string, ex: Executor = db): Promise<void> {
      await touch.execute(ex, { tokenHash, lastSeenAt, expiresAt });
    },

    async delete(tokenHash: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('sessions').where('tokenHash', '=', tokenHash).execute();
    },

    /** Every session of the user, except the one with `exceptTokenHash` when given. */
    async deleteForUser(userId: string, exceptTokenHash: string | null, ex: Executor = db): Promise<void> {
      let q = ex.deleteFrom('sessions').where('userId', '=', userId);
      if (exceptTokenHash !== null) q = q.where('tokenHash', '<>', exceptTokenHash);
      await q.execute();
    },

    /** Signs the user out everywhere; returns how many sessions ended. */
    async deleteAllForUser(userId: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('sessions').where('userId', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Housekeeping: every session that has run out. */
    async deleteExpired(now: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('sessions').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Housekeeping at sign-in: the user's sessions that have run out. */
    async deleteExpiredForUser(userId: string, now: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('sessions').where('userId', '=', userId).where('expiresAt', '<=', now).execute();
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
