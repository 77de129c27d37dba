import { sql, type Kysely } from 'kysely';
import type { TaskStatus } from '#shared/constants.ts';
import { thumbnailUrl } from '#shared/schemas/attachments.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task, TaskCounts } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, slotsFor, type Executor } from '../db/prepared.ts';
import type { DB, TasksTable } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import { selectTasks, TASK_COLUMNS, type TaskColumnValues, type TaskRowValues } from './task-columns.ts';
import { createColumnListQueries, type ColumnListOptions } from './column-list-queries.ts';
import { createLabelReads } from './task-label-reads.ts';
import { createTaskListQueries, type ListOptions, type TaskFilter } from './task-list-queries.ts';
import { boardRoleOf, visibleTo, type Viewer } from './task-visibility.ts';

interface FindArgs extends Record<string, unknown> {
  id: string;
  userId: string;
  email: string;
}

/** A task as a write finds it, with what decides the writer's rights (task-visibility.ts). */
export interface TaskForWrite {
  task: Task;
  /** The writer's role on the task's board; null when they are not an active member of it. */
  role: string | null;
  /** The name of the task's board (for the activity of a move). */
  boardName: string;
  /** The board `target` of the read, when one was given: the writer's role there (null: not a member or no such board) and its name. */
  target: { role: string | null; name: string | null };
  /** With a read for a move (`findForWrite`'s `spot`): the spot it goes to, read with the task. */
  spot?: Spot | undefined;
}

/** Where a move goes, read with the moved task (services/task-moves.ts): the target column and the keys around the spot. */
export interface Spot {
  /** The column's board, category, name and WIP limit; undefined when there is no such column. */
  column: { boardId: string; category: TaskStatus; name: string; wipLimit: number | null } | undefined;
  /** The key of `afterId` in that column; null when afterId is null or is not (any longer) there. */
  afterKey: string | null;
  /** The first key below the spot (the moved task's own left out); null: the spot is the bottom. */
  nextKey: string | null;
  /** The tasks in the column now (only read when it has a WIP limit). */
  count: number;
  /** The name of the moved task's column (for the activity entry). */
  fromName: string | null;
}

interface WriteFindArgs extends FindArgs {
  target: string;
}
interface MoveFindArgs extends WriteFindArgs {
  column: string;
  afterId: string;
}
type SpotValues = [string | null, TaskStatus | null, string | null, number | null, string | null, string | null, number | string, string | null];

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
export function toTaskJson(row: TaskJsonValues, labels: Label[]): Task {
  // taskSelect's order; each value typed by the query (the creator's id is not shown).
  const [_id, workTitle, taskTitle, assignee, , deadline, priority, status, description, createdAt, updatedAt, version, boardId, done, total, every, unit, columnId, position, startAt, attachmentCount, coverId, coverWidth, coverHeight, assignor, assignorEmail] = row;
  return {
    _id,
    workTitle,
    taskTitle,
    assignee,
    assignor,
    assignorEmail,
    deadline,
    startAt,
    priority,
    status,
    description,
    createdAt,
    updatedAt,
    version,
    boardId,
    labels,
    checklist: { done, total },
    repeat: every === null || unit === null ? null : { every, unit },
    columnId,
    position,
    attachmentCount,
    cover: coverOf(coverId, coverWidth, coverHeight),
  };
}

/** A task's cover from its row's columns (all set, or none). */
export function coverOf(id: string | null, width: number | null, height: number | null): Task['cover'] {
  return id === null || width === null || height === null ? null : { attachmentId: id, thumbnailUrl: thumbnailUrl(id), width, height };
}

/** A task row without its label ids (TASK_COLUMNS, then the creator's full name and e-mail): what `toTaskJson` reads beside the labels. */
export type TaskJsonValues = readonly [...TaskColumnValues, string, string];

/** A new task's row: what `insert` needs, the checklist counts and repeat defaulting to none. */
export type NewTask = Omit<Insertable<TasksTable>, 'version'>;

/** The values of every task column for an insert of `task` at version 1. */
export function newTaskRow(task: NewTask): Record<(typeof TASK_COLUMNS)[number], unknown> {
  return {
    deadline: null, startAt: null, checklistDone: 0, checklistTotal: 0, repeatEvery: null, repeatUnit: null,
    attachmentCount: 0, coverId: null, coverWidth: null, coverHeight: null, ...task, version: 1,
  };
}

export function createTasksRepository(db: Kysely<DB>, dialect: Dialect) {
  const listQueries = createTaskListQueries(db, dialect);
  const labelReads = createLabelReads(db, dialect);
  const columnList = createColumnListQueries(db, dialect);
  /** Rows read with `taskSelect` as Task JSON: their labels in one more query (none when no row has labels). */
  const fromRows = async (rows: readonly TaskRowValues[], ex: Executor): Promise<Task[]> => {
    const labels = await labelReads.resolve(
      rows.map((row) => row[row.length - 1] as string | null),
      ex,
    );
    return rows.map((row, i) => toTaskJson(row.slice(0, -1) as unknown as TaskJsonValues, labels[i] ?? []));
  };

  const withCreator = () => selectTasks(db).where('t.id', '=', slot('id'));
  const findVisible = prepare<FindArgs, TaskRowValues>(withCreator().where(visibleTo('t')), { rowsAsArrays: true });
  // A write reads the task it changes together with everything that decides the writer's rights
  // (one statement: the task if visible, the writer's role on its board, and on the board it
  // may move to), so a refusal costs no second trip and 404 / 403 / 409 are told apart from it.
  const rightsOf = (tasks: ReturnType<typeof selectTasks>) =>
    tasks
      .where(visibleTo('t'))
      .select([
        boardRoleOf(sql.ref('t.boardId')).as('role'),
        sql<string>`(select b.name from boards b where b.id = t.board_id)`.as('boardName'),
        boardRoleOf(slot('target')).as('targetRole'),
        sql<string | null>`(select b.name from boards b where b.id = ${slot('target')})`.as('targetName'),
      ]);
  const forWrite = () => rightsOf(withCreator());
  // With a row lock (PostgreSQL; SQLite has one writer at a time) inside a write transaction,
  // so concurrent writes to one task queue up and each sees the version before it.
  const findForWrite = prepare<WriteFindArgs, [...TaskRowValues, string | null, string, string | null, string | null]>(forWrite(), { rowsAsArrays: true });
  const findForWriteLocked =
    dialect === 'postgres' ? prepare<WriteFindArgs, [...TaskRowValues, string | null, string, string | null, string | null]>(forWrite().forUpdate('t'), { rowsAsArrays: true }) : findForWrite;
  // Many tasks at once (a change of many tasks): the same read of each with `ids` (a JSON array)
  // instead of one id, locked in the order of their ids so two such changes cannot deadlock.
  const idsIn =
    dialect === 'postgres' ? sql<string>`(select jsonb_array_elements_text(cast(${slot('ids')} as jsonb)))` : sql<string>`(select value from json_each(${slot('ids')}))`;
  const forWriteMany = () => rightsOf(selectTasks(db).where('t.id', 'in', idsIn)).orderBy('t.id');
  const findManyForWrite = prepare<Omit<WriteFindArgs, 'id'> & { ids: string }, [...TaskRowValues, string | null, string, string | null, string | null]>(
    dialect === 'postgres' ? forWriteMany().forUpdate('t') : forWriteMany(),
    { rowsAsArrays: true },
  );
  // A move reads its spot with the task (one statement, as a PATCH reads the task): the target
  // column, the key of the task it goes below (only when that task is in that column) and the next
  // key below the spot, the moved task's own left out.
  const forMove = () =>
    forWrite()
      .leftJoin('boardColumns as sc', (join) => join.on('sc.id', '=', slot('column')))
      .leftJoin('tasks as sa', (join) => join.on('sa.id', '=', slot('afterId')).onRef('sa.columnId', '=', 'sc.id'))
      .select([
        'sc.boardId as spotBoardId',
        'sc.category as spotCategory',
        'sc.name as spotName',
        'sc.wipLimit as spotWipLimit',
        'sa.position as afterKey',
        sql<string | null>`(select min(n.position) from tasks n where n.column_id = sc.id and n.id <> t.id and (sa.position is null or n.position > sa.position))`.as('nextKey'),
        sql<number | string>`case when sc.wip_limit is null then 0 else (select count(*) from tasks n where n.column_id = sc.id) end`.as('spotCount'),
        sql<string | null>`(select f.name from board_columns f where f.id = t.column_id)`.as('fromName'),
      ]);
  const findForMove = prepare<MoveFindArgs, [...TaskRowValues, string | null, string, string | null, string | null, ...SpotValues]>(forMove(), { rowsAsArrays: true });
  const findForMoveLocked =
    dialect === 'postgres' ? prepare<MoveFindArgs, [...TaskRowValues, string | null, string, string | null, string | null, ...SpotValues]>(forMove().forUpdate('t'), { rowsAsArrays: true }) : findForMove;
  const boardRole = prepare<{ board: string; userId: string }, { role: string }>(
    db.selectFrom('boardMembers').select('role').where('boardId', '=', slot('board')).where('userId', '=', slot('userId')),
  );
  const findById = prepare<{ id: string }, TaskRowValues>(withCreator(), { rowsAsArrays: true });
  const insertTask = prepare<Record<(typeof TASK_COLUMNS)[number], unknown>, TaskColumnValues>(
    db.insertInto('tasks').values(slotsFor(TASK_COLUMNS)).returning(TASK_COLUMNS),
    { rowsAsArrays: true },
  );
  /** A row a write read back (TASK_COLUMNS' values) with its creator, who is the assignor, and its labels. */
  const written = (row: TaskColumnValues | undefined, creator: Creator, labels: Label[]) =>
    row === undefined ? undefined : toTaskJson([...row, creator.fullName, creator.email], labels);

  return {
    /** The visible tasks matching the filters, in the sort's order, already in the API's shape. */
    /** One column's tasks (column-list-queries.ts): the caller has checked that the viewer is on its board. */
    async listColumn(viewer: Viewer, options: ColumnListOptions, ex: Executor = db): Promise<Task[]> {
      return fromRows(await columnList.list(viewer, options, ex), ex);
    },

    /** How many tasks each column of `boardId` holds under the filter (the caller has checked the viewer is on the board). */
    columnCounts(viewer: Viewer, boardId: string, filter: TaskFilter, ex: Executor = db): Promise<Record<string, number>> {
      return columnList.counts(viewer, boardId, filter, ex);
    },

    async list(viewer: Viewer, options: ListOptions, ex: Executor = db): Promise<Task[]> {
      return fromRows(await listQueries.list(viewer, options, ex), ex);
    },

    /** To do, done and overdue (open, deadline before `now`) among the filtered tasks. */
    counts(viewer: Viewer, filter: TaskFilter, now: string, ex: Executor = db): Promise<TaskCounts> {
      return listQueries.counts(viewer, filter, now, ex);
    },

    /** A cheap token of what the viewer's calendar feed holds (task-list-queries.ts `buildFeedStamp`). */
    feedStamp(viewer: Viewer, board: string | undefined, ex: Executor = db): Promise<string> {
      return listQueries.feedStamp(viewer, board, ex);
    },

    async findVisible(id: string, viewer: Viewer, ex: Executor = db): Promise<Task | undefined> {
      const { rows } = await findVisible.execute(ex, { id, userId: viewer.userId, email: viewer.email });
      return (await fromRows(rows, ex))[0];
    },

    /**
     * `findVisible` for a write, with the writer's rights (`TaskForWrite`); `target`: a board the
     * write may move the task to. `locked`: inside a write transaction, also locks the row until
     * it ends (PostgreSQL).
     */
    async findForWrite(
      id: string,
      viewer: Viewer,
      target: string | undefined,
      locked: boolean,
      ex: Executor,
      spot?: { columnId: string; afterId: string | null },
    ): Promise<TaskForWrite | undefined> {
      const args = { id, userId: viewer.userId, email: viewer.email, target: target ?? '' };
      let row: [...TaskRowValues, string | null, string, string | null, string | null] | undefined;
      let found: Spot | undefined;
      if (spot === undefined) {
        row = (await (locked ? findForWriteLocked : findForWrite).execute(ex, args)).rows[0];
      } else {
        const full = (await (locked ? findForMoveLocked : findForMove).execute(ex, { ...args, column: spot.columnId, afterId: spot.afterId ?? '' })).rows[0];
        if (full !== undefined) {
          const [boardId, category, name, wipLimit, afterKey, nextKey, count, fromName] = full.slice(-8) as SpotValues;
          found = {
            column: boardId === null || category === null || name === null ? undefined : { boardId, category, name, wipLimit },
            afterKey,
            nextKey,
            count: Number(count),
            fromName,
          };
          row = full.slice(0, -8) as unknown as typeof row;
        }
      }
      if (row === undefined) return undefined;
      const [role, boardName, targetRole, targetName] = row.slice(-4) as [string | null, string, string | null, string | null];
      const [task] = await fromRows([row.slice(0, -4) as unknown as TaskRowValues], ex);
      if (task === undefined) return undefined;
      return { task, role, boardName, target: { role: targetRole, name: targetName }, ...(found === undefined ? {} : { spot: found }) };
    },

    /**
     * `findForWrite` of many tasks in one statement, each row locked (PostgreSQL) in the order of
     * the ids: the tasks the viewer sees, by id (an id missing from the answer is a task they do not see).
     */
    async findManyForWrite(ids: readonly string[], viewer: Viewer, target: string | undefined, ex: Executor): Promise<Map<string, TaskForWrite>> {
      const args = { ids: JSON.stringify(ids), userId: viewer.userId, email: viewer.email, target: target ?? '' };
      const rows = ids.length === 0 ? [] : (await findManyForWrite.execute(ex, args)).rows;
      const tasks = await fromRows(rows.map((row) => row.slice(0, -4) as unknown as TaskRowValues), ex);
      return new Map(
        rows.map((row, i) => {
          const [role, boardName, targetRole, targetName] = row.slice(-4) as [string | null, string, string | null, string | null];
          const task = tasks[i];
          if (task === undefined) throw new Error('unreachable');
          return [task._id, { task, role, boardName, target: { role: targetRole, name: targetName } }];
        }),
      );
    },

    /** The viewer's role on a board, or undefined when they are not an active member of it (or it does not exist). */
    async boardRole(board: string, viewer: Viewer, ex: Executor = db): Promise<string | undefined> {
      const { rows } = await boardRole.execute(ex, { board, userId: viewer.userId });
      return rows[0]?.role;
    },

    /** Any task by id, regardless of who asks (for answers and events after a write). */
    async findById(id: string, ex: Executor = db): Promise<Task | undefined> {
      const { rows } = await findById.execute(ex, { id });
      return (await fromRows(rows, ex))[0];
    },

    /**
     * Stores a new task (version 1) and returns it as the API shows it, from the inserted row
     * itself (`returning`): no second read. `creator` is the creating user (the assignor).
     */
    async insert(task: NewTask, creator: Creator, ex: Executor = db): Promise<Task> {
      const { rows } = await insertTask.execute(ex, newTaskRow(task));
      const inserted = written(rows[0], creator, []);
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
      changes: Partial<Omit<Insertable<TasksTable>, 'id' | 'createdBy' | 'createdAt' | 'version'>>,
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
      return written(rows[0], { fullName: current.assignor, email: current.assignorEmail }, current.labels);
    },

    /** The id of the account that created a task (tasks.created_by), which the Task JSON does not show. */
    async creatorId(id: string, ex: Executor = db): Promise<string | undefined> {
      return (await ex.selectFrom('tasks').select('createdBy').where('id', '=', id).executeTakeFirst())?.createdBy;
    },

    /** Puts the labels `labelIds` that belong to `boardId` on a task (a new one: a repeating task's next occurrence). */
    async addLabels(taskId: string, boardId: string, labelIds: readonly string[], ex: Executor = db): Promise<void> {
      if (labelIds.length === 0) return;
      await ex
        .insertInto('taskLabels')
        .columns(['taskId', 'labelId'])
        .expression((eb) => eb.selectFrom('labels').select([sql.val(taskId).as('taskId'), 'id']).where('boardId', '=', boardId).where('id', 'in', [...labelIds]))
        .execute();
    },

    /** Deletes the task if it is still at `version`; false when another write got there first. */
    async delete(id: string, version: number, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('tasks').where('id', '=', id).where('version', '=', version).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
