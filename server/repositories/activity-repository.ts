import type { Kysely } from 'kysely';
import type { Activity, ActivityType } from '#shared/schemas/comments.ts';
import { prepare, slot, slotsFor, type Executor } from '../db/prepared.ts';
import type { DB, TaskActivityTable } from '../db/schema.ts';

/**
 * An entry to write. `changes` is JSON text of the type's details, or null: `updated`:
 * `{field: {from, to}}`; `checklist`: `{action, text}`; `created` of a repeating task's next
 * occurrence: `{repeatOf: {_id, taskTitle}}`.
 */
export type NewActivity = Omit<TaskActivityTable, 'seq'>;

interface ActivityRow {
  id: string;
  type: ActivityType;
  actorName: string;
  actorEmail: string;
  at: string;
  changes: string | null;
}

/**
 * A task's activity log, oldest first (insertion order). Entries are written by the write that
 * causes them, in its transaction. The actor's current name and e-mail come from `users`; the
 * copies on the row speak for a deleted account.
 */
export function createActivityRepository(db: Kysely<DB>) {
  const listForTask = prepare<{ taskId: string }, ActivityRow>(
    db
      .selectFrom('taskActivity as a')
      .leftJoin('users as u', 'u.id', 'a.actorId')
      .select((eb) => [
        'a.id',
        'a.type',
        eb.fn.coalesce('u.fullName', 'a.actorName').as('actorName'),
        eb.fn.coalesce('u.email', 'a.actorEmail').as('actorEmail'),
        'a.at',
        'a.changes',
      ])
      .where('a.taskId', '=', slot('taskId'))
      .orderBy('a.seq'),
  );
  const insertOne = prepare<NewActivity, never>(
    db.insertInto('taskActivity').values(slotsFor(['id', 'taskId', 'type', 'actorId', 'actorName', 'actorEmail', 'at', 'changes'] as const satisfies readonly (keyof NewActivity)[])),
  );

  return {
    async listForTask(taskId: string, ex: Executor = db): Promise<Activity[]> {
      const { rows } = await listForTask.execute(ex, { taskId });
      return rows.map((row) => {
        const entry: Activity = { _id: row.id, type: row.type, by: { fullName: row.actorName, email: row.actorEmail }, at: row.at };
        if (row.changes === null) return entry;
        // `changes` holds each type's details (see NewActivity).
        const details = JSON.parse(row.changes) as unknown;
        if (row.type === 'checklist') entry.checklist = details as NonNullable<Activity['checklist']>;
        else if (row.type === 'created') entry.repeatOf = (details as { repeatOf: NonNullable<Activity['repeatOf']> }).repeatOf;
        else entry.changes = details as NonNullable<Activity['changes']>;
        return entry;
      });
    },

    /** A write's entries: one (the usual case) through a compile-once insert, more in one statement. */
    async insert(entries: readonly NewActivity[], ex: Executor = db): Promise<void> {
      const [only, ...more] = entries;
      if (only === undefined) return;
      if (more.length === 0) await insertOne.execute(ex, only);
      else await ex.insertInto('taskActivity').values([...entries]).execute();
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
