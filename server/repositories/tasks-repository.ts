import type { Kysely } from 'kysely';
import type { Priority, TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { prepare, slot, type Executor, type Prepared } from '../db/prepared.ts';
import type { DB, TasksTable } from '../db/schema.ts';

/** A task row with its creator's name and e-mail (read by join, never stored twice). */
export interface TaskRow extends TasksTable {
  assignor: string;
  assignorEmail: string;
}

/** Who is asking: visibility is "created by me" or "assigned to my e-mail". */
export interface Viewer {
  userId: string;
  email: string;
}

export interface ListFilter {
  status?: TaskStatus | undefined;
  priority?: Priority | undefined;
  /** Keyset position: rows strictly older than this (created_at, id) pair. */
  after?: { createdAt: string; id: string } | undefined;
  /** Maximum rows; absent means all. */
  limit?: number | undefined;
}

type ListArgs = Record<string, unknown>;

/** A board row as the database names its columns (the list query skips CamelCasePlugin). */
interface RawTaskRow {
  id: string;
  work_title: string;
  task_title: string;
  assignee_email: string;
  deadline: string | null;
  priority: Priority;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  assignor: string;
  assignor_email: string;
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const TASK_COLUMNS = [
  'id',
  'workTitle',
  'taskTitle',
  'assigneeEmail',
  'createdBy',
  'deadline',
  'priority',
  'status',
  'createdAt',
  'updatedAt',
] as const;

export function createTasksRepository(db: Kysely<DB>) {
  /**
   * The visible set as two index range scans merged with UNION ALL (created by me, and assigned
   * to me but created by someone else, so nothing appears twice) instead of an OR that would
   * force a scan of the table. With a limit, each branch is already ordered and cut by its
   * index, so a page reads at most 2 × limit rows.
   */
  function visibleBranch(mine: boolean, filter: { status: boolean; priority: boolean; after: boolean; limit: boolean }) {
    let q = db.selectFrom('tasks').select(TASK_COLUMNS);
    q = mine
      ? q.where('createdBy', '=', slot('userId'))
      : q.where('assigneeEmail', '=', slot('email')).where('createdBy', '<>', slot('userId'));
    if (filter.status) q = q.where('status', '=', slot('status'));
    if (filter.priority) q = q.where('priority', '=', slot('priority'));
    if (filter.after) {
      q = q.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(slot('afterCreatedAt'), slot('afterId'))));
    }
    if (filter.limit) q = q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(slot('limit'));
    return q;
  }

  function buildList(filter: { status: boolean; priority: boolean; after: boolean; limit: boolean }) {
    const union = db
      .selectFrom(visibleBranch(true, filter).as('mine'))
      .selectAll()
      .unionAll(db.selectFrom(visibleBranch(false, filter).as('assigned')).selectAll());
    let q = db
      .selectFrom(union.as('t'))
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select([...TASK_COLUMNS.map((c) => `t.${c}` as const), 'u.fullName as assignor', 'u.email as assignorEmail'])
      .orderBy('t.createdAt', 'desc')
      .orderBy('t.id', 'desc');
    if (filter.limit) q = q.limit(slot('limit'));
    return prepare<ListArgs, RawTaskRow>(q, { rawRows: true });
  }

  // Each filter combination is compiled once, on first use.
  const listQueries = new Map<string, Prepared<ListArgs, RawTaskRow>>();
  function listQuery(filter: ListFilter): Prepared<ListArgs, RawTaskRow> {
    const shape = {
      status: filter.status !== undefined,
      priority: filter.priority !== undefined,
      after: filter.after !== undefined,
      limit: filter.limit !== undefined,
    };
    const key = `${+shape.status}${+shape.priority}${+shape.after}${+shape.limit}`;
    let query = listQueries.get(key);
    if (query === undefined) {
      query = buildList(shape);
      listQueries.set(key, query);
    }
    return query;
  }

  function buildCounts(byPriority: boolean) {
    const branch = (mine: boolean) => {
      let q = db.selectFrom('tasks').select('status');
      q = mine
        ? q.where('createdBy', '=', slot('userId'))
        : q.where('assigneeEmail', '=', slot('email')).where('createdBy', '<>', slot('userId'));
      if (byPriority) q = q.where('priority', '=', slot('priority'));
      return q;
    };
    return prepare<ListArgs, { status: TaskStatus; count: number }>(
      db
        .selectFrom(branch(true).unionAll(branch(false)).as('t'))
        .select((eb) => ['t.status', eb.cast<number>(eb.fn.countAll(), 'integer').as('count')])
        .groupBy('t.status'),
    );
  }
  const countsAll = buildCounts(false);
  const countsByPriority = buildCounts(true);

  const findVisible = prepare<{ id: string; userId: string; email: string }, TaskRow>(
    db
      .selectFrom('tasks as t')
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select([...TASK_COLUMNS.map((c) => `t.${c}` as const), 'u.fullName as assignor', 'u.email as assignorEmail'])
      .where('t.id', '=', slot('id'))
      .where((eb) => eb.or([eb('t.createdBy', '=', slot('userId')), eb('t.assigneeEmail', '=', slot('email'))])),
  );

  return {
    /** The visible tasks, newest first, already in the API's shape. */
    async list(viewer: Viewer, filter: ListFilter, ex: Executor = db): Promise<Task[]> {
      const args: ListArgs = { userId: viewer.userId, email: viewer.email };
      if (filter.status !== undefined) args.status = filter.status;
      if (filter.priority !== undefined) args.priority = filter.priority;
      if (filter.after !== undefined) {
        args.afterCreatedAt = filter.after.createdAt;
        args.afterId = filter.after.id;
      }
      if (filter.limit !== undefined) args.limit = filter.limit;
      const { rows } = await listQuery(filter).execute(ex, args);
      return rows.map(rawToTask);
    },

    async counts(viewer: Viewer, priority: Priority | undefined, ex: Executor = db): Promise<Record<TaskStatus, number>> {
      const { rows } =
        priority === undefined
          ? await countsAll.execute(ex, { userId: viewer.userId, email: viewer.email })
          : await countsByPriority.execute(ex, { userId: viewer.userId, email: viewer.email, priority });
      const counts: Record<TaskStatus, number> = { todo: 0, done: 0 };
      for (const row of rows) counts[row.status] = row.count;
      return counts;
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
