import type { Kysely } from 'kysely';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, slotsFor, type Executor } from '../db/prepared.ts';
import type { DB, TasksTable } from '../db/schema.ts';
import {
  createTaskListQueries,
  TASK_COLUMNS,
  type ListOptions,
  TASK_SELECT,
  type TaskRowValues,
  type TaskCounts,
  type TaskFilter,
  type Viewer,
} from './task-list-queries.ts';

export type { ListOptions, TaskFilter, Viewer } from './task-list-queries.ts';

interface FindArgs extends Record<string, unknown> {
  id: string;
  userId: string;
  email: string;
}

/** Every column of a new row, in the order of the prepared insert. */
const INSERTED = ['id', 'workTitle', 'taskTitle', 'assigneeEmail', 'createdBy', 'deadline', 'priority', 'status', 'description', 'createdAt', 'updatedAt', 'version'] as const satisfies readonly (keyof TasksTable)[];

/** The creator of a task, who is shown as its assignor. */
export interface Creator {
  fullName: string;
  email: string;
}

/**
 * Where a stored task becomes the API's Task JSON: `toTaskJson` for the rows reads return
 * (arrays of TASK_SELECT's values, straight from the driver), `writtenTask` for the row a write reads back with
 * `returning` (camelCase). Both build one object field by field, so nothing unlisted can leak
 * into an answer or an event; the two lists are the same thirteen fields.
 */
function writtenTask(row: TasksTable, creator: Creator): Task {
  return {
    _id: row.id,
    workTitle: row.workTitle,
    taskTitle: row.taskTitle,
    assignee: row.assigneeEmail,
    assignor: creator.fullName,
    assignorEmail: creator.email,
    deadline: row.deadline,
    priority: row.priority,
    status: row.status,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

/** Where each field sits in TaskRowValues. */
const at = (column: (typeof TASK_COLUMNS)[number]) => TASK_COLUMNS.indexOf(column);
const ID = at('id');
const WORK_TITLE = at('workTitle');
const TASK_TITLE = at('taskTitle');
const ASSIGNEE = at('assigneeEmail');
const DEADLINE = at('deadline');
const PRIORITY = at('priority');
const STATUS = at('status');
const DESCRIPTION = at('description');
const CREATED_AT = at('createdAt');
const UPDATED_AT = at('updatedAt');
const VERSION = at('version');
const ASSIGNOR = TASK_COLUMNS.length;
const ASSIGNOR_EMAIL = TASK_COLUMNS.length + 1;

function toTaskJson(row: TaskRowValues): Task {
  return {
    _id: row[ID] as string,
    workTitle: row[WORK_TITLE] as string,
    taskTitle: row[TASK_TITLE] as string,
    assignee: row[ASSIGNEE] as string,
    assignor: row[ASSIGNOR] as string,
    assignorEmail: row[ASSIGNOR_EMAIL] as string,
    deadline: row[DEADLINE] as string | null,
    priority: row[PRIORITY] as Task['priority'],
    status: row[STATUS] as Task['status'],
    description: row[DESCRIPTION] as string,
    createdAt: row[CREATED_AT] as string,
    updatedAt: row[UPDATED_AT] as string,
    version: row[VERSION] as number,
  };
}

export function createTasksRepository(db: Kysely<DB>, dialect: Dialect) {
  const listQueries = createTaskListQueries(db, dialect);

  const withCreator = () =>
    db
      .selectFrom('tasks as t')
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select(TASK_SELECT)
      .where('t.id', '=', slot('id'));
  const visible = () =>
    withCreator().where((eb) => eb.or([eb('t.createdBy', '=', slot('userId')), eb('t.assigneeEmail', '=', slot('email'))]));
  const findVisible = prepare<FindArgs, TaskRowValues>(visible(), { rowsAsArrays: true });
  // A write reads the task it changes with a row lock (PostgreSQL; SQLite has one writer at a
  // time), so concurrent writes to one task queue up and each sees the version before it.
  const findVisibleForWrite =
    dialect === 'postgres' ? prepare<FindArgs, TaskRowValues>(visible().forUpdate('t'), { rowsAsArrays: true }) : findVisible;
  const findById = prepare<{ id: string }, TaskRowValues>(withCreator(), { rowsAsArrays: true });
  const insertTask = prepare<{ [K in keyof TasksTable]: TasksTable[K] }, TasksTable>(
    db
      .insertInto('tasks')
      .values(slotsFor(INSERTED))
      .returning(TASK_COLUMNS),
  );

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
      const row = rows[0];
      if (row === undefined) throw new Error('The task insert returned no row');
      return writtenTask(row, creator);
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
      const row = await ex
        .updateTable('tasks')
        .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
        .where('id', '=', current._id)
        .where('version', '=', current.version)
        .returning(TASK_COLUMNS)
        .executeTakeFirst();
      return row === undefined ? undefined : writtenTask(row, { fullName: current.assignor, email: current.assignorEmail });
    },

    /** Deletes the task if it is still at `version`; false when another write got there first. */
    async delete(id: string, version: number, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('tasks').where('id', '=', id).where('version', '=', version).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
