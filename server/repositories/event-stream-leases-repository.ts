import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB, EventStreamLeasesTable } from '../db/schema.ts';

/**
 * One row per open event stream, so the per-user cap holds across instances. Rows are renewed
 * while their stream lives and expire when an instance dies without removing them.
 */
export function createEventStreamLeasesRepository(db: Kysely<DB>) {
  return {
    async countLive(userId: string, now: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('eventStreamLeases')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
        .where('userId', '=', userId)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return row?.n ?? 0;
    },

    async insert(lease: EventStreamLeasesTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('eventStreamLeases').values(lease).execute();
    },

    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('eventStreamLeases').where('id', '=', id).execute();
    },

    /** Pushes out the expiry of every lease of one instance (its streams are alive). */
    async renewInstance(instanceId: string, expiresAt: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('eventStreamLeases').set({ expiresAt }).where('instanceId', '=', instanceId).execute();
    },

    /**
     * The sessions of this instance's streams that have ended (the row is gone) or expired by
     * `now`: one query for all of the instance's streams (the instance index, then one
     * primary-key probe of `sessions` per lease). A stream opened with an API token is tied to
     * its secret's hash (`api_tokens.secret_hash`, unique) instead: it ends when the token is
     * revoked or expires. (Both are SHA-256 of 256 random bits: the two never share a value.)
     */
    async endedSessionsOf(instanceId: string, now: string, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .selectFrom('eventStreamLeases as l')
        .leftJoin('sessions as s', 's.tokenHash', 'l.sessionTokenHash')
        .leftJoin('apiTokens as t', 't.secretHash', 'l.sessionTokenHash')
        .leftJoin('users as tu', 'tu.id', 't.userId')
        .select('l.sessionTokenHash')
        .distinct()
        .where('l.instanceId', '=', instanceId)
        .where((eb) =>
          eb.and([
            eb.or([eb('s.tokenHash', 'is', null), eb('s.expiresAt', '<=', now)]),
            // A token of a deactivated account is kept, but its streams end.
            eb.or([eb('t.secretHash', 'is', null), eb('t.expiresAt', '<=', now), eb('tu.deactivatedAt', 'is not', null)]),
          ]),
        )
        .execute();
      return rows.map((row) => row.sessionTokenHash);
    },

    async deleteInstance(instanceId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('eventStreamLeases').where('instanceId', '=', instanceId).execute();
    },

    /** Housekeeping: leases of streams whose instance stopped renewing them. */
    async deleteExpired(now: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('eventStreamLeases').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
