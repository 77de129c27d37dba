import { sql, type Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB, PushSubscriptionsTable } from '../db/schema.ts';

export type PushSubscriptionRow = PushSubscriptionsTable;

/** What subscribing did: `added` a new one, `kept` one already the caller's, `moved` one from another account, or `full` (limit reached, nothing written). */
export type SubscribeOutcome = 'added' | 'kept' | 'moved' | 'full';

/**
 * Browsers' push subscriptions (migration 0014). An endpoint is unique: one browser profile has
 * one, so subscribing it again (another account signed in there) moves it to that account.
 */
export function createPushSubscriptionsRepository(db: Kysely<DB>, dialect: 'sqlite' | 'postgres') {
  return {
    /**
     * Adds `row` for its user, or moves/refreshes the subscription with the same endpoint,
     * unless the user already has `limit` others. Call inside a transaction: on PostgreSQL the
     * user's row is locked first (`for update`), so two instances subscribing one account at the
     * same moment count one after the other and cannot both take the last place; SQLite's write
     * transaction has the database to itself already. Undefined when the user no longer exists.
     */
    async subscribe(row: PushSubscriptionRow, limit: number, trx: Executor): Promise<SubscribeOutcome | undefined> {
      let owner = trx.selectFrom('users').select('id').where('id', '=', row.userId);
      if (dialect === 'postgres') owner = owner.forUpdate();
      if ((await owner.executeTakeFirst()) === undefined) return undefined;
      const existing = await trx.selectFrom('pushSubscriptions').select('userId').where('endpoint', '=', row.endpoint).executeTakeFirst();
      if (existing?.userId !== row.userId) {
        const { count } = await trx
          .selectFrom('pushSubscriptions')
          .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
          .where('userId', '=', row.userId)
          .executeTakeFirstOrThrow();
        if (count >= limit) return 'full';
      }
      // On conflict as well as after the read: another account may subscribe the same endpoint
      // in between (its own lock is not ours); the later write wins, as a sequential one would.
      await trx
        .insertInto('pushSubscriptions')
        .values(row)
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            userId: row.userId,
            p256dh: row.p256dh,
            auth: row.auth,
            // A subscription moved to another account gets a new id: pushes already queued for the
            // previous account (outbox rows naming the old id) then find it gone and are dropped.
            id: sql<string>`case when ${sql.ref('push_subscriptions.user_id')} = ${row.userId} then ${sql.ref('push_subscriptions.id')} else ${row.id} end`,
          }),
        )
        .execute();
      if (existing === undefined) return 'added';
      return existing.userId === row.userId ? 'kept' : 'moved';
    },

    /** Deletes the user's subscription with this endpoint (someone else's stays); true when one went. */
    async deleteOwn(userId: string, endpoint: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('pushSubscriptions').where('userId', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async findById(id: string, ex: Executor = db): Promise<PushSubscriptionRow | undefined> {
      return ex.selectFrom('pushSubscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** A push service answered 404/410: the subscription is dead. */
    async deleteById(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('pushSubscriptions').where('id', '=', id).execute();
    },

    async listFor(userId: string, ex: Executor = db): Promise<PushSubscriptionRow[]> {
      return ex.selectFrom('pushSubscriptions').selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();
    },
  };
}

export type PushSubscriptionsRepository = ReturnType<typeof createPushSubscriptionsRepository>;
