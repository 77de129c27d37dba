import type { Kysely } from 'kysely';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { DB, TasksTable } from '../db/schema.ts';
import {
  createTaskListQueries,
  TASK_COLUMNS,
  type ListOptions,
  type RawTaskRow,
  type TaskCounts,
  type TaskFilter,
  type Viewer,
} from './task-list-queries.ts';

export type { ListOptions, TaskFilter, Viewer } from './task-list-queries.ts';

/** A task row with its creator's name and e-mail (read by join, never stored twice). */
export interface TaskRow extends TasksTable {
  assignor: string;
  assignorEmail: string;
}

/** Straight from the row to the API's task shape: one object per task on the hot path. */
function rawToTask(row: RawTaskRow): Task {
  return {
    _id: row.id,
    workTitle: row.work_title,
    taskTitle: row.task_title,
    assignee: row.assignee_email,
    assignor: row.assignor,
    assignorEmail: row.assignor_email,
    deadline: row.deadline,
    priority: row.priority,
    status: row.status,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createTasksRepository(db: Kysely<DB>, dialect: Dialect) {
  const listQueries = createTaskListQueries(db, dialect);

  const findVisible = prepare<{ id: string; userId: string; email: string }, TaskRow>(
    db
      .selectFrom('tasks as t')
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select([...TASK_COLUMNS.map((c) => `t.${c}` as const), 'u.fullName as assignor', 'u.email as assignorEmail'])
      .where('t.id', '=', slot('id'))
      .where((eb) => eb.or([eb('t.createdBy', '=', slot('userId')), eb('t.assigneeEmail', '=', slot('email'))])),
  );

  return {
    /** The visible tasks matching the filters, in the sort's order, already in the API's shape. */
    async list(viewer: Viewer, options: ListOptions, ex: Executor = db): Promise<Task[]> {
      return (await listQueries.list(viewer, options, ex)).map(rawToTask);
    },

    /** To do, done and overdue (open, deadline before `now`) among the filtered tasks. */
    counts(viewer: Viewer, filter: TaskFilter, now: string, ex: Executor = db): Promise<TaskCounts> {
      return listQueries.counts(viewer, filter, now, ex);
    },

    async findVisible(id: string, viewer: Viewer, ex: Executor = db): Promise<TaskRow | undefined> {
      const { rows } = await findVisible.execute(ex, { id, userId: viewer.userId, email: viewer.email });
      return rows[0];
    },

    async insert(task: TasksTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('tasks').values(task).execute();
    },

    async update(
      id: string,
      changes: Partial<Omit<TasksTable, 'id' | 'createdBy' | 'createdAt'>>,
      ex: Executor = db,
    ): Promise<void> {
      await ex.updateTable('tasks').set(changes).where('id', '=', id).execute();
    },

    /** Deletes the task if the viewer may see it; false when there was nothing to delete. */
    async deleteVisible(id: string, viewer: Viewer, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .deleteFrom('tasks')
        .where('id', '=', id)
        .where((eb) => eb.or([eb('createdBy', '=', viewer.userId), eb('assigneeEmail', '=', viewer.email)]))
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
