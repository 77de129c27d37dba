import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { prepare, slotsFor, type Executor } from '../db/prepared.ts';
import type { DB, OutboxTable } from '../db/schema.ts';

/** A row as written and claimed; `pushSubscriptionId` only on pushes (the insert of mails leaves it out). */
export type OutboxRow = { [K in Exclude<keyof OutboxTable, 'pushSubscriptionId' | 'webhookId' | 'responseStatus' | 'texts'>]: OutboxTable[K] } & {
  texts?: string | null;
  pushSubscriptionId?: string | null;
  webhookId?: string | null;
  responseStatus?: number | null;
};

const OUTBOX_COLUMNS = [
  'id', 'kind', 'toEmail', 'subject', 'textBody', 'htmlBody', 'headers', 'dedupeKey', 'status',
  'attempts', 'runAt', 'lockedBy', 'lockedUntil', 'lastError', 'createdAt', 'sentAt', 'causedBy', 'texts',
] as const satisfies readonly (keyof OutboxTable)[];

/** A task whose next reminder is due, with what the reminder needs to say. */
export interface DueReminderRow {
  id: string;
  taskTitle: string;
  deadline: string | null;
  assigneeEmail: string;
  nextReminderAt: string;
  creatorEmail: string;
}


/**
 * The outbox and the reminder schedule. Claims follow the PostgreSQL job-queue pattern of
 * graphile-worker and pg-boss: `FOR UPDATE SKIP LOCKED` picks rows no other worker holds, and
 * the claim is a lease (`locked_until`) rather than a lock held by an open transaction, so a
 * worker that dies leaves rows that any instance takes over once the lease runs out. SQLite
 * has one writer at a time, so the same single UPDATE is already exclusive there.
 * `'pending'`/`'todo'` are literals, not parameters, so both databases can prove that the
 * queries match the partial indexes of migration 0006.
 */
// `tasks.next_reminder_at` exists only for the reminder schedule: it is added to the table's
// type here ($extendTables) instead of in db/schema.ts, so no other query can depend on it.
/**
 * Leases up to `limit` due rows of `lane` to `workerId` until `lockedUntil`, spending one attempt
 * each. Each lane reads its own partial index of pending rows (`kind = 'webhook'` or not), so a
 * backlog of one lane never slows the other's claim (migration 0017).
 */
function claimStatement(ex: Executor, skipLocked: boolean, workerId: string, now: string, lockedUntil: string, limit: number, lane: 'messages' | 'webhooks') {
  return ex
    .updateTable('outbox')
    .set((eb) => ({ lockedBy: workerId, lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) => {
      let due = eb
        .selectFrom('outbox')
        .select('id')
        .where('status', '=', sql.lit('pending'))
        .where('kind', lane === 'webhooks' ? '=' : '<>', sql.lit('webhook'))
        .where('runAt', '<=', now)
        .where((w) => w.or([w('lockedUntil', 'is', null), w('lockedUntil', '<=', now)]))
        .orderBy('runAt')
        .limit(limit);
      if (skipLocked) due = due.forUpdate().skipLocked();
      return due;
    })
    .returningAll();
}

export function createOutboxRepository(db: Kysely<DB>, dialect: 'sqlite' | 'postgres') {
  const skipLocked = dialect === 'postgres';
  const insertOne = prepare<OutboxRow, never>(
    db
      .insertInto('outbox')
      .values(slotsFor(OUTBOX_COLUMNS))
      .onConflict((oc) => oc.column('dedupeKey').where('dedupeKey', 'is not', null).doNothing()),
  );

  return {
    /** Adds a mail; a second row with the same dedupe key is silently dropped. */
    async insert(row: OutboxRow, ex: Executor = db): Promise<void> {
      await insertOne.execute(ex, { texts: null, ...row });
    },

    /** Adds many mails in a few statements (the reminder scan's batch); duplicates are dropped. */
    async insertMany(rows: readonly OutboxRow[], ex: Executor = db): Promise<void> {
      for (let i = 0; i < rows.length; i += 100) {
        await ex
          .insertInto('outbox')
          .values(rows.slice(i, i + 100))
          .onConflict((oc) => oc.column('dedupeKey').where('dedupeKey', 'is not', null).doNothing())
          .execute();
      }
    },

    /**
     * Leases up to `limit` due rows to `workerId` until `lockedUntil`; spends one attempt each.
     * `lane`: mails and pushes, or webhook deliveries (claimed and sent apart, so slow receivers
     * never hold up mail).
     */
    async claim(
      workerId: string,
      now: string,
      lockedUntil: string,
      limit: number,
      ex: Executor = db,
      lane: 'messages' | 'webhooks' = 'messages',
    ): Promise<OutboxRow[]> {
      return claimStatement(ex, skipLocked, workerId, now, lockedUntil, limit, lane).execute();
    },

    /** The claim of `lane`, compiled (for the test that reads its plan). */
    claimQuery(lane: 'messages' | 'webhooks'): CompiledQuery {
      const now = new Date(0).toISOString();
      return claimStatement(db, skipLocked, 'plan', now, now, 10, lane).compile();
    },

    /** Records the rows as delivered (one statement for a whole round's deliveries). */
    async markSent(ids: readonly string[], workerId: string, now: string, ex: Executor = db, responseStatus?: number | null): Promise<void> {
      if (ids.length === 0) return;
      await ex
        .updateTable('outbox')
        .set({ status: 'sent', sentAt: now, lockedBy: null, lockedUntil: null, lastError: null, ...(responseStatus === undefined ? {} : { responseStatus }) })
        .where('id', 'in', ids)
        .where('lockedBy', '=', workerId)
        .execute();
    },

    /** Back to pending at `runAt`, or `failed` for good when `runAt` is null. */
    async markFailed(id: string, workerId: string, error: string, runAt: string | null, ex: Executor = db, responseStatus?: number | null): Promise<void> {
      const answer = responseStatus === undefined ? {} : { responseStatus };
      await ex
        .updateTable('outbox')
        .set(
          runAt === null
            ? { status: 'failed', lockedBy: null, lockedUntil: null, lastError: error, ...answer }
            : { runAt, lockedBy: null, lockedUntil: null, lastError: error, ...answer },
        )
        .where('id', '=', id)
        .where('lockedBy', '=', workerId)
        .execute();
    },

    /** Gives claimed rows back untouched (shutdown): due at once, the attempt not counted. */
    async release(ids: string[], workerId: string, ex: Executor = db): Promise<void> {
      if (ids.length === 0) return;
      await ex
        .updateTable('outbox')
        .set((eb) => ({ lockedBy: null, lockedUntil: null, attempts: eb('attempts', '-', 1) }))
        .where('id', 'in', ids)
        .where('lockedBy', '=', workerId)
        .where('status', '=', 'pending')
        .execute();
    },

    /**
     * Mails caused by `sender` written after `since` (the sender's hourly cap). PostgreSQL:
     * through `mail_quota_used`, which first takes the sender's advisory lock until the caller's
     * transaction ends, so two writes of one sender cannot both take the last place (migration
     * 0009); SQLite has one writer at a time, so a plain count is exact.
     */
    async senderMailsUsed(sender: string, since: string, ex: Executor = db): Promise<number> {
      if (dialect === 'postgres') {
        const { rows } = await sql<{ used: number }>`select mail_quota_used(${sender}, ${since}) as used`.execute(ex);
        return rows[0]?.used ?? 0;
      }
      const row = await ex
        .selectFrom('outbox')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('used'))
        .where('causedBy', '=', sender)
        .where('createdAt', '>', since)
        .executeTakeFirstOrThrow();
      return row.used;
    },

    /** Rows not yet delivered or given up: all of them, only mails, only pushes, or only webhook deliveries. */
    async countPending(only?: 'mail' | 'push' | 'webhook', ex: Executor = db): Promise<number> {
      let q = ex
        .selectFrom('outbox')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
        .where('status', '=', sql.lit('pending'));
      if (only === 'push') q = q.where('kind', '=', sql.lit('push'));
      if (only === 'webhook') q = q.where('kind', '=', sql.lit('webhook'));
      if (only === 'mail') q = q.where('kind', 'not in', [sql.lit('push'), sql.lit('webhook')]);
      const row = await q.executeTakeFirstOrThrow();
      return row.count;
    },

    /** Housekeeping: delivered or abandoned rows older than `before`. */
    async deleteFinishedBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('outbox')
        .where('status', 'in', ['sent', 'failed'])
        .where('createdAt', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Sets when the task's next reminder is due (null: none ahead). */
    async setNextReminder(taskId: string, at: string | null, ex: Executor = db): Promise<void> {
      await ex
        .$extendTables<{ tasks: { nextReminderAt: string | null } }>()
        .updateTable('tasks')
        .set({ nextReminderAt: at })
        .where('id', '=', taskId)
        .execute();
    },

    /**
     * Open tasks whose next reminder is due, read through the partial index on open tasks'
     * `next_reminder_at`. On PostgreSQL the rows stay locked (skipping ones another instance
     * holds) until the caller's transaction moves their schedule on.
     */
    async dueReminders(now: string, limit: number, ex: Executor = db): Promise<DueReminderRow[]> {
      let q = ex
        .$extendTables<{ tasks: { nextReminderAt: string | null } }>()
        .selectFrom('tasks as t')
        .innerJoin('users as u', 'u.id', 't.createdBy')
        .select(['t.id', 't.taskTitle', 't.deadline', 't.assigneeEmail', 't.nextReminderAt', 'u.email as creatorEmail'])
        .where('t.status', '=', sql.lit('todo'))
        .where('t.nextReminderAt', 'is not', null)
        .where('t.nextReminderAt', '<=', now)
        .orderBy('t.nextReminderAt')
        .limit(limit);
      if (skipLocked) q = q.forUpdate('t').skipLocked();
      return (await q.execute()) as DueReminderRow[];
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
