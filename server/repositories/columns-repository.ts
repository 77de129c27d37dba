import type { Kysely } from 'kysely';
import type { TaskStatus } from '#shared/constants.ts';
import { prepare, slot, type Executor, type Prepared } from '../db/prepared.ts';
import type { BoardColumnsTable, DB } from '../db/schema.ts';
import { keysBetween } from '../services/order-keys.ts';

/*
 * The SQL of a board's columns (migration 0021) and of a task's place in one. Order keys are made
 * by services/order-keys.ts; these functions only read and write them.
 */

/** A board's column as stored, with the key of the task at its top (null: empty). */
export interface StoredColumn extends BoardColumnsTable {
  top: string | null;
}

/** Where a task goes: its column and its key. */
export interface Place {
  columnId: string;
  position: string;
}

type ColumnsRow = StoredColumn & { role?: string | null };
type ColumnsQuery = Prepared<{ boardId: string; userId: string }, ColumnsRow>;

/** The query of `columnsOfBoard`, with or without the role, compiled once per database (its adapter, shared by its transactions). */
const columnsQueries = new WeakMap<object, { plain: ColumnsQuery; withRole: ColumnsQuery }>();
function columnsQuery(ex: Executor, withRole: boolean): ColumnsQuery {
  const adapter = ex.getExecutor().adapter;
  let queries = columnsQueries.get(adapter);
  if (queries === undefined) {
    const base = ex
      .selectFrom('boardColumns as c')
      .select(['c.id', 'c.boardId', 'c.name', 'c.category', 'c.wipLimit', 'c.position'])
      .select((eb) => eb.selectFrom('tasks as t').whereRef('t.columnId', '=', 'c.id').select((e) => e.fn.min('t.position').as('m')).as('top'))
      .where('c.boardId', '=', slot('boardId'))
      .orderBy('c.position')
      .orderBy('c.id');
    queries = {
      plain: prepare(base),
      withRole: prepare(base.select((eb) => eb.selectFrom('boardMembers as m').whereRef('m.boardId', '=', 'c.boardId').where('m.userId', '=', slot('userId')).select('m.role').as('role'))),
    };
    columnsQueries.set(adapter, queries);
  }
  return withRole ? queries.withRole : queries.plain;
}

/**
 * A board's columns in order, each with its top task's key (one index seek per column); with
 * `userId`, also that person's role on the board (null: not a member), in the same statement.
 * Read by every task create (its place): compiled once (`columnsQuery`).
 */
export async function columnsOfBoard(ex: Executor, boardId: string, userId?: string): Promise<ColumnsRow[]> {
  const { rows } = await columnsQuery(ex, userId !== undefined).execute(ex, { boardId, userId: userId ?? '' });
  return rows;
}

/** The first column of `category` among a board's columns (a board always has one of each). */
export function firstOf<C extends BoardColumnsTable>(columns: readonly C[], category: TaskStatus): C {
  const first = columns.find((column) => column.category === category);
  if (first === undefined) throw new Error(`Board ${columns[0]?.boardId ?? '?'} has no ${category} column`);
  return first;
}

/**
 * Places for new tasks at the top of the first column of their status on their board, one per
 * row, in order: of the rows going to one column, the first lands topmost. One read per board.
 */
export async function placeAtTop(ex: Executor, rows: readonly { boardId: string; status: TaskStatus }[]): Promise<Place[]> {
  const columnOf = new Map<string, StoredColumn>();
  for (const boardId of new Set(rows.map((row) => row.boardId))) {
    const columns = await columnsOfBoard(ex, boardId);
    for (const category of ['todo', 'done'] as const) columnOf.set(`${boardId}\n${category}`, firstOf(columns, category));
  }
  const wanted = new Map<StoredColumn, number>();
  const columns = rows.map((row) => {
    const column = columnOf.get(`${row.boardId}\n${row.status}`);
    if (column === undefined) throw new Error('unreachable');
    wanted.set(column, (wanted.get(column) ?? 0) + 1);
    return column;
  });
  const keys = new Map([...wanted].map(([column, n]) => [column, keysBetween(null, column.top, n)]));
  return columns.map((column) => {
    const key = keys.get(column)?.shift();
    if (key === undefined) throw new Error('unreachable');
    return { columnId: column.id, position: key };
  });
}

/** `rows` with their places (placeAtTop): for writes of many new tasks at once (imports, tests). */
export async function placedAtTop<R extends { boardId: string; status: TaskStatus }>(ex: Executor, rows: readonly R[]): Promise<(R & Place)[]> {
  const places = await placeAtTop(ex, rows);
  return rows.map((row, i) => {
    const place = places[i];
    if (place === undefined) throw new Error('unreachable');
    return { ...row, ...place };
  });
}

export function createColumnsRepository(db: Kysely<DB>) {
  return {
    ofBoard: (boardId: string, ex: Executor = db): Promise<StoredColumn[]> => columnsOfBoard(ex, boardId),

    /** The boards' columns in order (several boards at once), without their tops. */
    async ofBoards(boardIds: readonly string[], ex: Executor = db): Promise<BoardColumnsTable[]> {
      if (boardIds.length === 0) return [];
      return ex.selectFrom('boardColumns').selectAll().where('boardId', 'in', boardIds).orderBy('boardId').orderBy('position').orderBy('id').execute();
    },

    placeAtTop: (rows: readonly { boardId: string; status: TaskStatus }[], ex: Executor = db) => placeAtTop(ex, rows),

    /**
     * How many tasks each column of the board holds (every member sees all of a board's tasks):
     * one count per column, each read from the (column_id, position) index alone, never the
     * board's task rows (a board of 20,000 tasks: 0.5 ms on SQLite, against 13 ms joined).
     */
    async counts(boardId: string, ex: Executor = db): Promise<Map<string, number>> {
      const rows = await ex
        .selectFrom('boardColumns as c')
        .select((eb) => ['c.id', eb.selectFrom('tasks as t').select(eb.fn.countAll().as('n')).whereRef('t.columnId', '=', 'c.id').as('n')])
        .where('c.boardId', '=', boardId)
        .execute();
      return new Map(rows.map((row) => [row.id, Number(row.n)]));
    },

    /** How many tasks the column holds. */
    async countIn(columnId: string, ex: Executor = db): Promise<number> {
      const row = await ex.selectFrom('tasks').select((eb) => eb.fn.countAll().as('n')).where('columnId', '=', columnId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async insert(row: BoardColumnsTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('boardColumns').values(row).execute();
    },

    async update(columnId: string, changes: Partial<Pick<BoardColumnsTable, 'name' | 'category' | 'wipLimit' | 'position'>>, ex: Executor = db): Promise<void> {
      await ex.updateTable('boardColumns').set(changes).where('id', '=', columnId).execute();
    },

    async delete(columnId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('boardColumns').where('id', '=', columnId).execute();
    },

    /** The column's tasks in order: id, version and key. */
    async tasksOf(columnId: string, ex: Executor = db): Promise<{ id: string; version: number; position: string }[]> {
      return ex.selectFrom('tasks').select(['id', 'version', 'position']).where('columnId', '=', columnId).orderBy('position').execute();
    },

    /** The last key of the column, or null when it is empty. */
    async lastKey(columnId: string, ex: Executor = db): Promise<string | null> {
      const row = await ex.selectFrom('tasks').select((eb) => eb.fn.max('position').as('m')).where('columnId', '=', columnId).executeTakeFirst();
      return (row?.m as string | null | undefined) ?? null;
    },

    /**
     * Gives tasks new places (a deleted column's tasks moving on, a column re-spaced): each row its
     * column, key and status, its version + 1 and `updatedAt`. One statement per task.
     */
    async setPlaces(rows: readonly { id: string; columnId: string; position: string; status: TaskStatus }[], updatedAt: string, ex: Executor = db): Promise<void> {
      for (const row of rows) {
        await ex
          .updateTable('tasks')
          .set((eb) => ({ columnId: row.columnId, position: row.position, status: row.status, updatedAt, version: eb('version', '+', 1) }))
          .where('id', '=', row.id)
          .execute();
      }
    },
  };
}

export type ColumnsRepository = ReturnType<typeof createColumnsRepository>;
