import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB, OidcFlowsTable, UserIdentitiesTable } from '../db/schema.ts';

/** Links of accounts to OpenID Connect providers, and the sign-ins under way at them. */
export function createIdentitiesRepository(db: Kysely<DB>) {
  return {
    /** The account linked to the provider's subject, with what a session needs. */
    async findAccount(providerId: string, subject: string, ex: Executor = db) {
      return ex
        .selectFrom('userIdentities')
        .innerJoin('users', 'users.id', 'userIdentities.userId')
        .select(['users.id', 'users.email', 'users.fullName'])
        .where('userIdentities.providerId', '=', providerId)
        .where('userIdentities.subject', '=', subject)
        .executeTakeFirst();
    },

    /** Links the subject to the account; false when the subject is linked already (to any account). */
    async link(identity: UserIdentitiesTable, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .insertInto('userIdentities')
        .values(identity)
        .onConflict((oc) => oc.columns(['providerId', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async touch(providerId: string, subject: string, now: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('userIdentities').set({ lastUsedAt: now }).where('providerId', '=', providerId).where('subject', '=', subject).execute();
    },

    /** The account's links, oldest first. */
    async listOf(userId: string, ex: Executor = db) {
      return ex
        .selectFrom('userIdentities')
        .select(['providerId', 'email', 'createdAt', 'lastUsedAt'])
        .where('userId', '=', userId)
        .orderBy('createdAt')
        .orderBy('providerId')
        .execute();
    },

    /** Removes the account's links to the provider; how many went. */
    async unlink(userId: string, providerId: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('userIdentities').where('userId', '=', userId).where('providerId', '=', providerId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async removeAllOf(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('userIdentities').where('userId', '=', userId).execute();
      await ex.deleteFrom('oidcFlows').where('userId', '=', userId).execute();
    },

    async insertFlow(flow: OidcFlowsTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('oidcFlows').values(flow).execute();
    },

    async findFlow(stateHash: string, ex: Executor = db) {
      return ex.selectFrom('oidcFlows').selectAll().where('stateHash', '=', stateHash).executeTakeFirst();
    },

    /** Marks the flow used; false when another answer used it first. */
    async consumeFlow(stateHash: string, now: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.updateTable('oidcFlows').set({ consumedAt: now }).where('stateHash', '=', stateHash).where('consumedAt', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Housekeeping: flows that expired before `before` (used ones too: they only served to recognise a replay). */
    async deleteFlowsExpiredBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('oidcFlows').where('expiresAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdentitiesRepository = ReturnType<typeof createIdentitiesRepository>;
