import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

export type ChallengePurpose = 'register' | 'sign-in';

/** A passkey as the account page lists it. */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
}

const summaryOf = (row: { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: number }): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  backedUp: row.backedUp === 1,
});

/** The rows of passkeys: the credentials, and the challenges of ceremonies under way. */
export function createPasskeysRepository(db: Kysely<DB>) {
  return {
    async insertChallenge(row: { challenge: string; purpose: ChallengePurpose; userId: string | null; expiresAt: string }, ex: Executor = db): Promise<void> {
      await ex.insertInto('webauthnChallenges').values(row).execute();
    },

    /**
     * Uses a challenge up: true when it was handed out for this purpose (and this account), has
     * not expired and was not used before. The check and the delete are one statement, so of two
     * answers to the same challenge only one gets true.
     */
    async consumeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null, now: string, ex: Executor = db): Promise<boolean> {
      let query = ex.deleteFrom('webauthnChallenges').where('challenge', '=', challenge).where('purpose', '=', purpose).where('expiresAt', '>', now);
      query = userId === null ? query.where('userId', 'is', null) : query.where('userId', '=', userId);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteExpiredChallenges(now: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('webauthnChallenges').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async insert(
      row: { id: string; userId: string; credentialId: string; publicKey: string; counter: number; transports: string; multiDevice: number; backedUp: number; name: string; createdAt: string },
      ex: Executor = db,
    ): Promise<PasskeySummary> {
      await ex.insertInto('passkeys').values(row).execute();
      return summaryOf({ ...row, lastUsedAt: null });
    },

    async listOf(userId: string, ex: Executor = db): Promise<PasskeySummary[]> {
      const rows = await ex
        .selectFrom('passkeys')
        .select(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp'])
        .where('userId', '=', userId)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      return rows.map(summaryOf);
    },

    /** The credential ids of the account, so the browser does not register one twice. */
    async credentialsOf(userId: string, ex: Executor = db): Promise<{ credentialId: string; transports: string }[]> {
      return ex.selectFrom('passkeys').select(['credentialId', 'transports']).where('userId', '=', userId).execute();
    },

    async countOf(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('passkeys')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow();
      return row.count;
    },

    /** A credential presented at sign-in, with its account. */
    async findByCredentialId(credentialId: string, ex: Executor = db) {
      return ex
        .selectFrom('passkeys')
        .innerJoin('users', 'users.id', 'passkeys.userId')
        .select(['passkeys.id', 'passkeys.userId', 'passkeys.credentialId', 'passkeys.publicKey', 'passkeys.counter', 'passkeys.transports', 'users.email', 'users.fullName'])
        .where('passkeys.credentialId', '=', credentialId)
        .executeTakeFirst();
    },

    /**
     * Records a sign-in with the passkey: its new counter, backup state and when. Refused (false)
     * when another sign-in moved the counter since it was read.
     */
    async recordUse(id: string, seen: { counter: number; newCounter: number; backedUp: boolean; now: string }, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('passkeys')
        .set({ counter: seen.newCounter, backedUp: seen.backedUp ? 1 : 0, lastUsedAt: seen.now })
        .where('id', '=', id)
        .where('counter', '=', seen.counter)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(userId: string, id: string, name: string, ex: Executor = db): Promise<PasskeySummary | undefined> {
      const result = await ex.updateTable('passkeys').set({ name }).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      const row = await ex.selectFrom('passkeys').select(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp']).where('id', '=', id).executeTakeFirstOrThrow();
      return summaryOf(row);
    },

    async remove(userId: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('passkeys').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
