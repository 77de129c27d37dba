import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB, SecondStepTokensTable, TotpFactorsTable } from '../db/schema.ts';
import { newId } from '../db/ids.ts';

/** The rows of the second step of sign-in: authenticator secrets, recovery codes, pending sign-ins. */
export function createTwoStepRepository(db: Kysely<DB>) {
  return {
    async factorOf(userId: string, ex: Executor = db): Promise<TotpFactorsTable | undefined> {
      return ex.selectFrom('totpFactors').selectAll().where('userId', '=', userId).executeTakeFirst();
    },

    /** Whether the account's second step is on (a confirmed authenticator). */
    async isOn(userId: string, ex: Executor = db): Promise<boolean> {
      const row = await ex.selectFrom('totpFactors').select('userId').where('userId', '=', userId).where('confirmedAt', 'is not', null).executeTakeFirst();
      return row !== undefined;
    },

    /** A new, unconfirmed secret; refused (false) while a confirmed one exists. */
    async savePending(userId: string, secretBox: string, now: string, ex: Executor = db): Promise<boolean> {
      await ex.deleteFrom('totpFactors').where('userId', '=', userId).where('confirmedAt', 'is', null).execute();
      await ex
        .insertInto('totpFactors')
        .values({ userId, secretBox, confirmedAt: null, lastStep: null, createdAt: now })
        .onConflict((oc) => oc.column('userId').doNothing())
        .execute();
      const row = await ex.selectFrom('totpFactors').select('secretBox').where('userId', '=', userId).executeTakeFirst();
      return row?.secretBox === secretBox;
    },

    /** Turns the pending secret on, remembering the step of the code that confirmed it. */
    async confirm(userId: string, step: number, now: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('totpFactors')
        .set({ confirmedAt: now, lastStep: step })
        .where('userId', '=', userId)
        .where('confirmedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Accepts the code of time step `step` once: false when a code of this step or a later one
     * was already accepted (the check and the write are one statement, so two requests with the
     * same code cannot both win).
     */
    async useStep(userId: string, step: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('totpFactors')
        .set({ lastStep: step })
        .where('userId', '=', userId)
        .where('confirmedAt', 'is not', null)
        .where((eb) => eb.or([eb('lastStep', 'is', null), eb('lastStep', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Turns the second step off: the secret, the recovery codes and pending sign-ins go. */
    async removeAll(userId: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('totpFactors').where('userId', '=', userId).executeTakeFirst();
      await ex.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
      await ex.deleteFrom('secondStepTokens').where('userId', '=', userId).execute();
      return Number(result.numDeletedRows) === 1;
    },

    /** Replaces the account's recovery codes with these hashes. */
    async replaceRecoveryCodes(userId: string, codeHashes: string[], ex: Executor = db): Promise<void> {
      await ex.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
      await ex
        .insertInto('recoveryCodes')
        .values(codeHashes.map((codeHash) => ({ id: newId(), userId, codeHash, usedAt: null })))
        .execute();
    },

    async recoveryCodesLeft(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('recoveryCodes')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
        .where('userId', '=', userId)
        .where('usedAt', 'is', null)
        .executeTakeFirstOrThrow();
      return row.count;
    },

    async hasRecoveryCode(userId: string, codeHash: string, ex: Executor = db): Promise<boolean> {
      const row = await ex
        .selectFrom('recoveryCodes')
        .select('id')
        .where('userId', '=', userId)
        .where('codeHash', '=', codeHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Marks the unused recovery code with this hash used: false when there is none. */
    async useRecoveryCode(userId: string, codeHash: string, now: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('recoveryCodes')
        .set({ usedAt: now })
        .where('userId', '=', userId)
        .where('codeHash', '=', codeHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) >= 1;
    },

    /** Stores a pending sign-in; the account's expired ones go. */
    async insertToken(row: { tokenHash: string; userId: string; expiresAt: string }, now: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('secondStepTokens').where('userId', '=', row.userId).where('expiresAt', '<=', now).execute();
      await ex.insertInto('secondStepTokens').values(row).execute();
    },

    async findToken(tokenHash: string, ex: Executor = db): Promise<(Omit<SecondStepTokensTable, 'failures'> & { failures: number; email: string; fullName: string; language: string }) | undefined> {
      return ex
        .selectFrom('secondStepTokens')
        .innerJoin('users', 'users.id', 'secondStepTokens.userId')
        .select(['secondStepTokens.tokenHash', 'secondStepTokens.userId', 'secondStepTokens.expiresAt', 'secondStepTokens.failures', 'users.email', 'users.fullName', 'users.language'])
        .where('secondStepTokens.tokenHash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** Counts one wrong code against the pending sign-in. */
    async countFailure(tokenHash: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('secondStepTokens')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('tokenHash', '=', tokenHash)
        .execute();
    },

    /** Uses up the pending sign-in: false when it is gone or has no tries left. */
    async consumeToken(tokenHash: string, now: string, maxFailures: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .deleteFrom('secondStepTokens')
        .where('tokenHash', '=', tokenHash)
        .where('expiresAt', '>', now)
        .where('failures', '<', maxFailures)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Ends the account's sign-ins waiting for a code (its password changed). */
    async deleteTokensOf(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('secondStepTokens').where('userId', '=', userId).execute();
    },

    /** Housekeeping: pending sign-ins that expired before `before`. */
    async deleteExpiredTokens(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('secondStepTokens').where('expiresAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type TwoStepRepository = ReturnType<typeof createTwoStepRepository>;
