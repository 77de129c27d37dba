import type { Kysely } from 'kysely';
import type { Priority, TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { prepare, slot, type Executor, type Prepared } from '../db/prepared.ts';
import type { Dialect } from '../db/connect.ts';
import type { DB, TasksTable } from '../db/schema.ts';

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

interface FindArgs extends Record<string, unknown> {
  id: string;
  userId: string;
  email: string;
}

/**
 * A task row joined with its creator, as the database names its columns (task queries skip
 * CamelCasePlugin and map rows themselves, see `toTaskJson`).
 */
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
  version: number;
  assignor: string;
  assignor_email: string;
}

/**
 * The one place a stored task becomes the API's Task JSON (lists, single reads, write answers
 * and event payloads all go through it): one object per task, field by field, so nothing
 * unlisted can leak into an answer.
 */
function toTaskJson(row: RawTaskRow): Task {
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
    version: row.version,
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
  'version',
] as const;

export function createTasksRepository(db: Kysely<DB>, dialect: Dialect) {
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

  const withCreator = () =>
    db
      .selectFrom('tasks as t')
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select([...TASK_COLUMNS.map((c) => `t.${c}` as const), 'u.fullName as assignor', 'u.email as assignorEmail'])
      .where('t.id', '=', slot('id'));
  const visible = () =>
    withCreator().where((eb) => eb.or([eb('t.createdBy', '=', slot('userId')), eb('t.assigneeEmail', '=', slot('email'))]));
  const findVisible = prepare<FindArgs, RawTaskRow>(visible(), { rawRows: true });
  // A write reads the task it changes with a row lock (PostgreSQL; SQLite has one writer at a
  // time), so concurrent writes to one task queue up and each sees the version before it.
  const findVisibleForWrite =
    dialect === 'postgres' ? prepare<FindArgs, RawTaskRow>(visible().forUpdate('t'), { rawRows: true }) : findVisible;
  const findById = prepare<{ id: string }, RawTaskRow>(withCreator(), { rawRows: true });

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
      return rows.map(toTaskJson);
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

    async insert(task: Omit<TasksTable, 'version'>, ex: Executor = db): Promise<void> {
      await ex.insertInto('tasks').values({ ...task, version: 1 }).execute();
    },

    /**
     * Applies `changes` and bumps the version, only if the task is still at `version`
     * (compare-and-set in one statement). False when another write got there first.
     */
    async update(
      id: string,
      version: number,
      changes: Partial<Omit<TasksTable, 'id' | 'createdBy' | 'createdAt' | 'version'>>,
      ex: Executor = db,
    ): Promise<boolean> {
      const result = await ex
        .updateTable('tasks')
        .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the task if it is still at `version`; false when another write got there first. */
    async delete(id: string, version: number, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('tasks').where('id', '=', id).where('version', '=', version).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
