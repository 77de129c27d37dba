import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import { STATUSES, type TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Executor } from '../db/prepared.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { validationFailed } from '../errors.ts';
import { columnsOfBoard, firstOf, type StoredColumn } from '../repositories/columns-repository.ts';
import { keyBetween, UnusableKeys } from './order-keys.ts';
import type { Message } from '#shared/i18n.ts';

/**
 * Where a task goes when a write does not say (a create, a `PATCH {status}` that names no column, a move to
 * another board): the top of the first column of its status's category; and `status` follows
 * the column. Moves that name a column and a spot are services/task-moves.ts.
 */

/** The column a write placed the task in (set by placeNewTask and placeChangedTask when they place it). */
export interface Placed {
  column?: Pick<StoredColumn, 'id' | 'name' | 'wipLimit'>;
}

/**
 * The WIP warning of a write that put a task in `column`: when the column has a limit and now
 * holds more tasks than it (one count, only for a column with a limit); else undefined.
 */
export async function overLimitWarning(ex: Executor, column: Placed['column']): Promise<Message | undefined> {
  if (column?.wipLimit == null) return undefined;
  const row = await ex.selectFrom('tasks').select((eb) => eb.fn.countAll().as('n')).where('columnId', '=', column.id).executeTakeFirst();
  const count = Number(row?.n ?? 0);
  return count > column.wipLimit ? COLUMN_MESSAGES.overLimit(column.name, count, column.wipLimit) : undefined;
}

/** The place fields of a task write. */
export interface PlaceChange {
  columnId?: string;
  position?: string;
  status?: TaskStatus;
}

/**
 * A new task's place on `boardId`: `columnId` (400 when it is not a column of the board) or the
 * first column of `status`. The column decides the status. Undefined when the board has no
 * columns: there is no such board (the insert then answers 404). `mayCreate`: the creator's role
 * on the board is read with the columns (one statement) and checked before anything is told of
 * the named column.
 */
export async function placeNewTask(
  ex: Executor,
  boardId: string,
  status: TaskStatus,
  columnId: string | undefined,
  placed: Placed = {},
  mayCreate?: { userId: string; check: (role: string | null | undefined) => void },
  hints?: TopHints,
): Promise<Required<PlaceChange> | undefined> {
  const columns = await columnsOfBoard(ex, boardId, mayCreate?.userId);
  if (columns.length === 0) return undefined;
  mayCreate?.check(columns[0]?.role);
  const column = columnId === undefined ? firstOf(columns, status) : columns.find((c) => c.id === columnId);
  if (column === undefined) throw validationFailed([{ field: 'columnId', message: COLUMN_MESSAGES.columnNotFound }]);
  placed.column = column;
  const position = keyBetween(null, column.top, column.id);
  hints?.learn(boardId, columns, { columnId: column.id, position });
  return { columnId: column.id, position, status: column.category };
}

/** How many boards' first columns an instance keeps (`createTopHints`), and for how long it trusts their names and WIP limits. */
export const TOP_HINTS = { maxBoards: 1_000, maxAgeMs: 5_000 } as const;

/** The first column of a status on a board, as a hint keeps it. */
type HintColumn = Pick<StoredColumn, 'id' | 'name' | 'wipLimit'>;

/**
 * What this instance last read of boards' first columns: per board and status, the first column
 * and the lowest key of it this instance has read or handed out (null: empty). A new task's place
 * is drawn from it without reading the board again (`take`); the insert itself checks that the
 * column is still the first of the status and that no task sits at or above the key
 * (task-write-statements.ts `atTop`), and a create whose check fails reads the board and writes
 * again. So a hint is never trusted for what is stored: another instance's writes make it miss,
 * not wrong. It is trusted for the column's name and WIP limit (the warning of a create) for
 * `maxAgeMs` after the read. At most `maxBoards` boards, the least recently read go first.
 */
export function createTopHints(options: { maxBoards: number; maxAgeMs: number }) {
  const hints = new Map<string, { readAt: number; column: HintColumn; lowest: string | null }>();
  const keyOf = (boardId: string, status: TaskStatus) => `${boardId}\n${status}`;
  const forget = (boardId: string) => {
    for (const status of STATUSES) hints.delete(keyOf(boardId, status));
  };
  return {
    /**
     * A place at the top of the first column of `status` on `boardId`, drawn from the hint;
     * undefined without a fresh one, or when the key library cannot read the lowest key (one
     * written by hand): the create then reads the board, whose place re-spaces the column.
     */
    take(boardId: string, status: TaskStatus, placed: Placed): Required<PlaceChange> | undefined {
      const hint = hints.get(keyOf(boardId, status));
      if (hint === undefined || performance.now() - hint.readAt > options.maxAgeMs) return undefined;
      let position: string;
      try {
        position = keyBetween(null, hint.lowest, hint.column.id);
      } catch (error) {
        if (!(error instanceof UnusableKeys)) throw error;
        forget(boardId);
        return undefined;
      }
      hint.lowest = position;
      placed.column = hint.column;
      return { columnId: hint.column.id, position, status };
    },
    /** The board's columns as just read, and the key a create drew from them (`position` in `columnId`). */
    learn(boardId: string, columns: readonly StoredColumn[], drawn?: { columnId: string; position: string }): void {
      forget(boardId);
      const readAt = performance.now();
      for (const status of STATUSES) {
        const column = firstOf(columns, status);
        const lowest = drawn?.columnId === column.id ? drawn.position : column.top;
        hints.set(keyOf(boardId, status), { readAt, column: { id: column.id, name: column.name, wipLimit: column.wipLimit }, lowest });
      }
      while (hints.size > options.maxBoards * STATUSES.length) {
        const oldest = hints.keys().next().value;
        if (oldest === undefined) break;
        hints.delete(oldest);
      }
    },
    /** A create whose hinted place missed: the board is read again next time. */
    forget,
  };
}
export type TopHints = ReturnType<typeof createTopHints>;

/**
 * What a change of `before` adds to `changes` so the task's place and status agree: a move to
 * another board goes to the top of that board's first column of the task's category; a status
 * change to the top of the board's first column of the new status. A change that names its
 * column itself (a move) is already placed.
 */
export async function placeChangedTask(
  ex: Executor,
  before: Task,
  changes: { boardId?: string; status?: TaskStatus; columnId?: string },
  placed: Placed = {},
): Promise<PlaceChange> {
  if (changes.columnId !== undefined) return {};
  if (changes.boardId === undefined && changes.status === undefined) return {};
  const status = changes.status ?? before.status;
  const columns = await columnsOfBoard(ex, changes.boardId ?? before.boardId);
  if (columns.length === 0) return {};
  const column = firstOf(columns, status);
  placed.column = column;
  return { columnId: column.id, position: keyBetween(null, column.top, column.id) };
}

/** The names of columns `ids` by id: those in `known` as they are, the others read. */
export async function columnNamesOf(ex: Executor, ids: readonly string[], known: ReadonlyMap<string, string> = new Map()): Promise<Map<string, string>> {
  const names = new Map(ids.flatMap((id) => (known.has(id) ? [[id, known.get(id) ?? '']] : [])));
  const missing = ids.filter((id) => !names.has(id));
  if (missing.length > 0) {
    for (const row of await ex.selectFrom('boardColumns').select(['id', 'name']).where('id', 'in', missing).execute()) names.set(row.id, row.name);
  }
  return names;
}

/** The unique index of (column_id, position) refused a key another write took first. */
export function isKeyTie(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  return constraint === 'tasks_column_position_idx' || (typeof message === 'string' && message.includes('tasks.column_id, tasks.position'));
}

/**
 * Runs a write that places a task again when its key tied with one another write stored first
 * (decision 123): each attempt reads the column afresh and draws a new jittered key. When no key
 * fits next to a stored one (UnusableKeys), `respace` gives that column fresh keys first, once
 * per column: a write is never refused for what is stored.
 */
export async function withDistinctKeys<T>(write: () => Promise<T>, respace: (columnId: string) => Promise<unknown>): Promise<T> {
  const respaced = new Set<string>();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (error instanceof UnusableKeys && error.columnId !== undefined && !respaced.has(error.columnId)) {
        respaced.add(error.columnId);
        await respace(error.columnId);
        continue;
      }
      if (attempt >= 5 || !isKeyTie(error)) throw error;
    }
  }
}
