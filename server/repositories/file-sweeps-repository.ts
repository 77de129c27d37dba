import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** Every key a row points at (`row`) or that is to be swept (`pending`), as one statement read them. */
export interface KnownKey {
  key: string;
  kind: 'row' | 'pending';
}

/**
 * The bookkeeping of stored files: `file_sweeps` (keys whose files are to be deleted once due)
 * and the keys `attachments` rows point at. The sweep claims rows as the outbox does
 * (outbox-repository.ts): `FOR UPDATE SKIP LOCKED` on PostgreSQL picks rows no other instance
 * holds, and the claim is a lease (`due_at` moved to the lease's end) rather than a lock held
 * by an open transaction, so no transaction stays open while files are deleted, and the keys of
 * an instance that dies come due again when its lease runs out. SQLite has one writer at a
 * time, so the same single UPDATE is already exclusive there.
 */
export function createFileSweepsRepository(db: Kysely<DB>) {
  const skipLocked = db.getExecutor().adapter instanceof PostgresAdapter;

  return {
    /** Moves up to `limit` keys due at `now` ('' is due at once) to `leaseUntil`, and returns them. */
    async claimDue(now: string, leaseUntil: string, limit: number, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .updateTable('fileSweeps')
        .set({ dueAt: leaseUntil })
        .where('storageKey', 'in', (eb) => {
          const due = eb.selectFrom('fileSweeps').select('storageKey').where('dueAt', '<=', now).orderBy('dueAt').limit(limit);
          return skipLocked ? due.forUpdate().skipLocked() : due;
        })
        .returning('storageKey')
        .execute();
      return rows.map((row) => row.storageKey);
    },

    /** Drops the row of a swept key, unless its lease was given to someone else meanwhile. */
    async finish(key: string, leaseUntil: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('fileSweeps').where('storageKey', '=', key).where('dueAt', '=', leaseUntil).execute();
    },

    /**
     * Every key rows point at and every key to be swept, in ONE statement, so one snapshot: an
     * upload's commit (row written, sweep deleted) or an attachment's deletion (row deleted,
     * sweep written by the trigger) cannot fall between two reads.
     */
    async knownKeys(ex: Executor = db): Promise<KnownKey[]> {
      return ex
        .selectFrom('attachments')
        .select(['storageKey as key', sql<KnownKey['kind']>`'row'`.as('kind')])
        .unionAll((eb) =>
          eb
            .selectFrom('attachments')
            .select((s) => [s.ref('thumbnailKey').$castTo<string>().as('key'), sql<KnownKey['kind']>`'row'`.as('kind')])
            .where('thumbnailKey', 'is not', null),
        )
        .unionAll((eb) => eb.selectFrom('fileSweeps').select(['storageKey as key', sql<KnownKey['kind']>`'pending'`.as('kind')]))
        .execute();
    },
  };
}
