import fp from 'fastify-plugin';
import { COLUMN_MESSAGES, COLUMN_POLICY } from '#shared/column-messages.ts';
import type { Message } from '#shared/i18n.ts';
import type { TaskStatus } from '#shared/constants.ts';
import { canChangeColumns } from '#shared/rights.ts';
import type { Column, ColumnWithCount } from '#shared/schemas/columns.ts';
import { newId } from '../db/ids.ts';
import { AppError, validationFailed } from '../errors.ts';
import { toColumnJson } from '../repositories/boards-repository.ts';
import type { StoredColumn } from '../repositories/columns-repository.ts';
import type { EventTransaction } from '../repositories/events-repository.ts';
import { appendAll, boardEvents } from './board-events.ts';
import { eventsFor } from './task-change.ts';
import { boardNotFound } from './boards.ts';
import { keyBetween, keysBetween, respacedKeys, UnusableKeys } from './order-keys.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';
import { overLimitWarning, withDistinctKeys } from './task-places.ts';

const columnNotFound = () => new AppError(404, 'NOT_FOUND', COLUMN_MESSAGES.columnNotFound);
const columnExists = () => new AppError(409, 'COLUMN_EXISTS', COLUMN_MESSAGES.columnExists);
const lastColumn = () => new AppError(409, 'LAST_COLUMN', COLUMN_MESSAGES.lastColumn);
const afterIdInvalid = () => validationFailed([{ field: 'afterId', message: COLUMN_MESSAGES.afterId }]);

export interface ColumnFields {
  name: string;
  category: TaskStatus;
  wipLimit?: number | null | undefined;
  /** undefined: last; null: first; an id: right after that column. */
  afterId?: string | null | undefined;
}

export interface ColumnsService {
  list(actor: Actor, boardId: string): Promise<ColumnWithCount[]>;
  create(actor: Actor, boardId: string, fields: ColumnFields): Promise<Column>;
  /** `warning`: the column holds more tasks than the limit it now has. */
  update(actor: Actor, boardId: string, columnId: string, changes: Partial<ColumnFields>): Promise<{ column: Column; warning?: Message | undefined }>;
  delete(actor: Actor, boardId: string, columnId: string, moveTo: string | undefined): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    columns: ColumnsService;
  }
}

/** The key for a column placed after `afterId` (null: first; undefined: last) among `others` (in order). */
function keyAfter(others: readonly StoredColumn[], afterId: string | null | undefined): string {
  if (afterId === undefined) return keyBetween(others.at(-1)?.position ?? null, null);
  if (afterId === null) return keyBetween(null, others[0]?.position ?? null);
  const i = others.findIndex((c) => c.id === afterId);
  if (i < 0) throw afterIdInvalid();
  return keyBetween(others[i]?.position ?? null, others[i + 1]?.position ?? null);
}

/**
 * A board's columns (decision 124). Any active member reads them, with how many tasks each holds;
 * the board's admins (a personal board's owner) change them. A change runs in one
 * `events.transaction` holding the board row's lock on PostgreSQL (as label and membership
 * changes do), so the 20-column limit, unique names (ignoring case) and "at least one todo and
 * one done column" hold under concurrent changes; every change sends `board.updated` with the
 * board's columns to its active members.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const boards = fastify.boardsRepository;
    const repo = fastify.columnsRepository;

    /** The actor's role: 404 when not an active member; with `trx`, the board row is locked and a non-admin gets 403. */
    const roleOn = async (actor: Actor, boardId: string, trx: EventTransaction | undefined) => {
      const m = await boards.membershipOf(existingId(boardId, boardNotFound), actor.userId, trx, trx !== undefined);
      if (m === undefined) throw boardNotFound();
      if (trx !== undefined && !canChangeColumns(m.role)) throw new AppError(403, 'FORBIDDEN', COLUMN_MESSAGES.columnsForbidden);
      return m.role;
    };
    /** Runs a column change and its board.updated events in one transaction. */
    const change = async <T>(actor: Actor, boardId: string, write: (columns: StoredColumn[], trx: EventTransaction, at: string) => Promise<{ value: T; changed: boolean }>) => {
      const value = await fastify.events.transaction(async (trx) => {
        await roleOn(actor, boardId, trx);
        const at = clock.now().toISOString();
        const { value, changed } = await write(await repo.ofBoard(boardId, trx), trx, at);
        if (changed) {
          await boards.touch(boardId, at, trx);
          await appendAll(trx, await boardEvents(boards, trx, boardId, at, { othersUpdated: true }));
        }
        return value;
      });
      fastify.taskWrites.columnsChanged(boardId);
      return value;
    };
    const found = (columns: readonly StoredColumn[], columnId: string) => {
      const column = columns.find((c) => c.id === existingId(columnId, columnNotFound));
      if (column === undefined) throw columnNotFound();
      return column;
    };
    const nameTaken = (columns: readonly StoredColumn[], name: string, except?: string) =>
      columns.some((c) => c.id !== except && c.name.toLowerCase() === name.toLowerCase());
    /**
     * The key for a column placed after `afterId` among `columns` (in order) but `moving`. Stored
     * data is never a reason to refuse: when the key library cannot read a neighbour's key (one
     * written by hand or by an old import), the board's columns (at most 20) get fresh keys in
     * their order, in the same transaction, and the key is made among those.
     */
    const placed = async (columns: StoredColumn[], afterId: string | null | undefined, trx: EventTransaction, moving?: string): Promise<string> => {
      try {
        return keyAfter(columns.filter((c) => c.id !== moving), afterId);
      } catch (error) {
        if (!(error instanceof UnusableKeys)) throw error;
      }
      const keys = respacedKeys(columns.length, new Set(columns.map((c) => c.position)));
      const respaced = columns.map((c, i) => ({ ...c, position: keys[i] ?? c.position }));
      for (const c of respaced) await repo.update(c.id, { position: c.position }, trx);
      return keyAfter(respaced.filter((c) => c.id !== moving), afterId);
    };
    /** Whether `column` is the board's only one of its category. */
    const onlyOfCategory = (columns: readonly StoredColumn[], column: StoredColumn) => !columns.some((c) => c.id !== column.id && c.category === column.category);

    const service: ColumnsService = {
      async list(actor, boardId) {
        await roleOn(actor, boardId, undefined);
        const [columns, counts] = await Promise.all([repo.ofBoard(boardId), repo.counts(boardId)]);
        return columns.map((c) => ({ ...toColumnJson(c), count: counts.get(c.id) ?? 0 }));
      },

      create: (actor, boardId, fields) =>
        change(actor, boardId, async (columns, trx) => {
          if (columns.length >= COLUMN_POLICY.maxPerBoard) throw new AppError(409, 'LIMIT_REACHED', COLUMN_MESSAGES.tooManyColumns);
          if (nameTaken(columns, fields.name)) throw columnExists();
          const row = { id: newId(), boardId, name: fields.name, category: fields.category, wipLimit: fields.wipLimit ?? null, position: await placed(columns, fields.afterId, trx) };
          await repo.insert(row, trx);
          return { value: toColumnJson(row), changed: true };
        }),

      update: (actor, boardId, columnId, changes) =>
        change<{ column: Column; warning?: Message | undefined }>(actor, boardId, async (columns, trx) => {
          const before = found(columns, columnId);
          const set: Partial<Pick<StoredColumn, 'name' | 'category' | 'wipLimit' | 'position'>> = {};
          if (changes.name !== undefined && changes.name !== before.name) {
            if (nameTaken(columns, changes.name, before.id)) throw columnExists();
            set.name = changes.name;
          }
          if (changes.category !== undefined && changes.category !== before.category) {
            if (onlyOfCategory(columns, before)) throw lastColumn();
            if (before.top !== null) throw new AppError(409, 'COLUMN_NOT_EMPTY', COLUMN_MESSAGES.categoryNotEmpty);
            set.category = changes.category;
          }
          if (changes.wipLimit !== undefined && changes.wipLimit !== before.wipLimit) set.wipLimit = changes.wipLimit;
          if (changes.afterId !== undefined) {
            if (changes.afterId === before.id) throw afterIdInvalid();
            const others = columns.filter((c) => c.id !== before.id);
            const i = changes.afterId === null ? -1 : others.findIndex((c) => c.id === changes.afterId);
            if (changes.afterId !== null && i < 0) throw afterIdInvalid();
            // Already there: its neighbours are the same ones.
            const now = columns.findIndex((c) => c.id === before.id);
            const alreadyThere = (changes.afterId === null ? now === 0 : columns[now - 1]?.id === changes.afterId);
            if (!alreadyThere) set.position = await placed(columns, changes.afterId, trx, before.id);
          }
          const after = { ...before, ...set };
          // A limit set below what the column holds already is told of, as a move past it is.
          const warning = set.wipLimit != null ? await overLimitWarning(trx, after) : undefined;
          if (Object.keys(set).length === 0) return { value: { column: toColumnJson(before) }, changed: false };
          await repo.update(before.id, set, trx);
          return { value: { column: toColumnJson(after), warning }, changed: true };
        }),

      // A target column whose last key the key library cannot read is re-spaced first (decision 130).
      delete: (actor, boardId, columnId, moveTo) =>
        withDistinctKeys(() => change(actor, boardId, async (columns, trx, at) => {
          const column = found(columns, columnId);
          if (onlyOfCategory(columns, column)) throw lastColumn();
          if (column.top !== null) {
            if (moveTo === undefined) throw new AppError(409, 'COLUMN_NOT_EMPTY', COLUMN_MESSAGES.notEmpty);
            if (moveTo === column.id) throw validationFailed([{ field: 'moveTo', message: COLUMN_MESSAGES.moveToSelf }]);
            const target = columns.find((c) => c.id === moveTo);
            if (target === undefined) throw validationFailed([{ field: 'moveTo', message: COLUMN_MESSAGES.columnNotFound }]);
            // Only into a column of the same category: nothing is completed or reopened in bulk (decision 125).
            if (target.category !== column.category) throw validationFailed([{ field: 'moveTo', message: COLUMN_MESSAGES.moveToCategory }]);
            // Its tasks keep their order, after the target's last one; their versions go up, and
            // each sends `task.updated` to who sees it.
            const tasks = await repo.tasksOf(column.id, trx);
            const keys = keysBetween(await repo.lastKey(target.id, trx), null, tasks.length, target.id);
            await repo.setPlaces(
              tasks.map((task, i) => ({ id: task.id, columnId: target.id, position: keys[i] ?? '', status: target.category })),
              at,
              trx,
            );
            const now = new Date(at);
            for (const { id } of tasks) {
              const task = await fastify.tasksRepository.findById(id, trx);
              if (task !== undefined) await appendAll(trx, eventsFor({ kind: 'updated', before: task, after: task, actor, now }));
            }
          }
          await repo.delete(column.id, trx);
          return { value: undefined, changed: true };
        }), (id) => fastify.taskWrites.respace(actor, id)),
    };
    fastify.decorate('columns', service);
    done();
  },
  { name: 'columns', dependencies: ['repositories', 'events', 'task-writes'] },
);
