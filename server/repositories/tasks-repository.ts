import type { Kysely } from 'kysely';
import type { Task, TaskCounts } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, slotsFor, type Executor } from '../db/prepared.ts';
import type { DB, TasksTable } from '../db/schema.ts';
import { selectTasks, TASK_COLUMNS, type TaskColumnValues, type TaskRowValues } from './task-columns.ts';
import { createTaskListQueries, type ListOptions, type TaskFilter } from './task-list-queries.ts';
import type { Viewer } from './task-visibility.ts';

interface FindArgs extends Record<string, unknown> {
  id: string;
  userId: string;
  email: string;
}

/** The creator of a task, who is shown as its assignor. */
export interface Creator {
  fullName: string;
  email: string;
}

/**
 * The one place a stored task becomes the API's Task JSON (lists, single reads, write answers
 * and event payloads all go through it): one object per task, field by field, so nothing
 * unlisted can leak into an answer.
 */
export function toTaskJson(row: TaskRowValues): Task {
  // TASK_SELECT's order; each value typed by the query (the creator's id is not shown).
  const [_id, workTitle, taskTitle, assignee, , deadline, priority, status, description, createdAt, updatedAt, version, boardId, assignor, assignorEmail] = row;
  return { _id, workTitle, taskTitle, assignee, assignor, assignorEmail, deadline, priority, status, description, createdAt, updatedAt, version, boardId };
}

export function createTasksRepository(db: Kysely<DB>, dialect: Dialect) {
  const listQueries = createTaskListQueries(db, dialect);

  const withCreator = () => selectTasks(db).where('t.id', '=', slot('id'));
  const visible = () =>
    withCreator().where((eb) => eb.or([eb('t.createdBy', '=', slot('userId')), eb('t.assigneeEmail', '=', slot('email'))]));
  const findVisible = prepare<FindArgs, TaskRowValues>(visible(), { rowsAsArrays: true });
  // A write reads the task it changes with a row lock (PostgreSQL; SQLite has one writer at a
  // time), so concurrent writes to one task queue up and each sees the version before it.
  const findVisibleForWrite =
    dialect === 'postgres' ? prepare<FindArgs, TaskRowValues>(visible().forUpdate('t'), { rowsAsArrays: true }) : findVisible;
  const findById = prepare<{ id: string }, TaskRowValues>(withCreator(), { rowsAsArrays: true });
  const insertTask = prepare<{ [K in keyof TasksTable]: TasksTable[K] }, TaskColumnValues>(
    db.insertInto('tasks').values(slotsFor(TASK_COLUMNS)).returning(TASK_COLUMNS),
    { rowsAsArrays: true },
  );
  /** A row a write read back (TASK_COLUMNS' values) with its creator, who is the assignor. */
  const written = (row: TaskColumnValues | undefined, creator: Creator) =>
    row === undefined ? undefined : toTaskJson([...row, creator.fullName, creator.email]);

  return {
    /** The visible tasks matching the filters, in the sort's order, already in the API's shape. */
    async list(viewer: Viewer, options: ListOptions, ex: Executor = db): Promise<Task[]> {
      return (await listQueries.list(viewer, options, ex)).map(toTaskJson);
    },

    /** To do, done and overdue (open, deadline before `now`) among the filtered tasks. */
    counts(viewer: Viewer, filter: TaskFilter, now: string, ex: Executor = db): Promise<TaskCounts> {
      return listQueries.counts(viewer, filter, now, ex);
    },

    async findVisible(id: string, viewer: Viewer, ex: Executor = db): Promise<Task | undefined> {
      const { rows } = await findVisible.execute(ex, { id, userId: viewer.userId, email: viewer.email });
      return rows[0] === undefined ? undefined : toTaskJson(rows[0]);
    },

    /** `findVisible` for a write transaction: also locks the row until the transaction ends. */
    async findVisibleForWrite(id: string, viewer: Viewer, trx: Executor): Promise<Task | undefined> {
      const { rows } = await findVisibleForWrite.execute(trx, { id, userId: viewer.userId, email: viewer.email });
      return rows[0] === undefined ? undefined : toTaskJson(rows[0]);
    },

    /** Any task by id, regardless of who asks (for answers and events after a write). */
    async findById(id: string, ex: Executor = db): Promise<Task | undefined> {
      const { rows } = await findById.execute(ex, { id });
      return rows[0] === undefined ? undefined : toTaskJson(rows[0]);
    },

    /**
     * Stores a new task (version 1) and returns it as the API shows it, from the inserted row
     * itself (`returning`): no second read. `creator` is the creating user (the assignor).
     */
    async insert(task: Omit<TasksTable, 'version'>, creator: Creator, ex: Executor = db): Promise<Task> {
      const { rows } = await insertTask.execute(ex, { ...task, version: 1 });
      const inserted = written(rows[0], creator);
      if (inserted === undefined) throw new Error('The task insert returned no row');
      return inserted;
    },

    /**
     * Applies `changes` to `current` and bumps the version, only if the task is still at
     * `current.version` (compare-and-set in one statement). Returns the task as written (read
     * back by `returning`; the creator, and so the assignor, never changes), or undefined when
     * another write got there first.
     */
    async update(
      current: Task,
      changes: Partial<Omit<TasksTable, 'id' | 'createdBy' | 'createdAt' | 'version'>>,
      ex: Executor = db,
    ): Promise<Task | undefined> {
      // Built per call (the changed fields differ), read back as an array like every task row.
      const update = ex
        .updateTable('tasks')
        .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
        .where('id', '=', current._id)
        .where('version', '=', current.version)
        .returning(TASK_COLUMNS);
      const { rows } = await prepare<Record<string, never>, TaskColumnValues>(update, { rowsAsArrays: true }).execute(ex, {});
      return written(rows[0], { fullName: current.assignor, email: current.assignorEmail });
    },

    /** Deletes the task if it is still at `version`; false when another write got there first. */
    async delete(id: string, version: number, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('tasks').where('id', '=', id).where('version', '=', version).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
