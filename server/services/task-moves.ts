import { sql } from 'kysely';
import fp from 'fastify-plugin';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import type { TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { AppError, validationFailed } from '../errors.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';
import type { EditableFields, Written } from './task-writes.ts';
import { keyBetween, KEY_MAX, respacedKeys } from './order-keys.ts';

/** What a move reads before it plans: the target column and the two keys around the spot. */
interface Spot {
  boardId: string;
  category: TaskStatus;
  name: string;
  wipLimit: number | null;
  /** The key of `afterId` in that column; null when afterId is null or is not (any longer) there. */
  afterKey: string | null;
  /** The first key below the spot (the moved task's own left out); null: the spot is the bottom. */
  nextKey: string | null;
  /** The tasks in the column now (only read when it has a WIP limit). */
  count: number;
  /** The moved task's column as read with the spot, and its name (for the activity entry). */
  fromId: string | null;
  fromName: string | null;
}

export interface MoveAnswer extends Written {
  /** The WIP warning when the move leaves the column over its limit; else undefined. */
  warning?: string | undefined;
}

export interface TaskMoves {
  /**
   * Moves task `id` into `columnId` (a column of its board), directly below `afterId` (null: the
   * top), at `version` (409 CONFLICT otherwise). 409 STALE_POSITION when `afterId` is not in that
   * column. Entering a `done` column completes the task, leaving one reopens it: the write is a
   * task update like any other (activity, repeats, notifications, webhooks, event).
   */
  move(actor: Actor, id: string, columnId: string, afterId: string | null, version: number): Promise<MoveAnswer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    taskMoves: TaskMoves;
  }
}

const stalePosition = () => new AppError(409, 'STALE_POSITION', COLUMN_MESSAGES.stalePosition);
const columnInvalid = () => validationFailed([{ field: 'columnId', message: COLUMN_MESSAGES.columnNotFound }]);

/**
 * A task's place in a column (decision 123). A move reads the spot (one statement: the column,
 * the key of the task it goes below and the next key), then writes through the task write path
 * as an update of `columnId`, `position` and, when the category changes, `status`: the moved
 * task's row only, never its neighbours'. On PostgreSQL that is three round trips: the spot, the
 * task with the writer's rights, the one-statement write.
 */
export default fp(
  (fastify, _opts, done) => {
    const { db } = fastify;
    const writes = fastify.taskWrites;

    async function spotOf(taskId: string, columnId: string, afterId: string | null): Promise<Spot | undefined> {
      const row = await db
        .selectFrom('boardColumns as c')
        .leftJoin('tasks as a', (j) => j.on('a.id', '=', afterId ?? '').onRef('a.columnId', '=', 'c.id'))
        .select([
          'c.boardId',
          'c.category',
          'c.name',
          'c.wipLimit',
          'a.position as afterKey',
          sql<string | null>`(select min(t.position) from tasks t where t.column_id = c.id and t.id <> ${taskId}
            and (a.position is null or t.position > a.position))`.as('nextKey'),
          sql<number | string>`case when c.wip_limit is null then 0 else (select count(*) from tasks t where t.column_id = c.id) end`.as('count'),
          sql<string | null>`(select t.column_id from tasks t where t.id = ${taskId})`.as('fromId'),
          sql<string | null>`(select f.name from tasks t join board_columns f on f.id = t.column_id where t.id = ${taskId})`.as('fromName'),
        ])
        .where('c.id', '=', columnId)
        .executeTakeFirst();
      return row === undefined ? undefined : { ...row, count: Number(row.count) };
    }

    /**
     * Gives every task of the column new evenly spread keys in their order (a key would pass
     * KEY_MAX otherwise); their versions go up and each gets `task.updated`.
     */
    async function respace(actor: Actor, columnId: string): Promise<Set<string>> {
      const tasks = await fastify.columnsRepository.tasksOf(columnId);
      const respaced = new Set<string>();
      const keys = respacedKeys(tasks.length, new Set(tasks.map((t) => t.position)));
      for (const [i, task] of tasks.entries()) {
        const position = keys[i] ?? '';
        try {
          const { task: after } = await writes.update(actor, task.id, undefined, (current) => (current.columnId === columnId ? { position } : {}));
          if (after.position === position) respaced.add(task.id);
        } catch (error) {
          // A task that left the column or the actor's sight meanwhile keeps its key.
          if (!(error instanceof AppError && error.status < 500)) throw error;
        }
      }
      return respaced;
    }

    /** The column names the spot read: the target's, and the moved task's column's (the activity entry's from and to). */
    const namesOf = (spot: Spot | undefined, columnId: string): Map<string, string> => {
      const names = new Map<string, string>();
      if (spot === undefined) return names;
      names.set(columnId, spot.name);
      if (spot.fromId !== null && spot.fromName !== null) names.set(spot.fromId, spot.fromName);
      return names;
    };

    const service: TaskMoves = {
      async move(actor, id, columnId, afterId, version) {
        existingId(id);
        if (afterId === id) throw validationFailed([{ field: 'afterId', message: COLUMN_MESSAGES.stalePosition }]);
        let expected = version;
        for (let respaced = false; ; respaced = true) {
          const spot = await spotOf(id, existingId(columnId, columnInvalid), afterId === null ? null : existingId(afterId, stalePosition));
          // What the plan found (it may run twice: again under the row lock).
          const plan: { tooLong: boolean; moved: Task | undefined } = { tooLong: false, moved: undefined };
          const written = await writes.update(actor, id, expected, (current): EditableFields => {
            if (spot?.boardId !== current.boardId) throw columnInvalid();
            if (afterId !== null && spot.afterKey === null) throw stalePosition();
            // Already there: directly below afterId (or at the top) of that column.
            if (
              current.columnId === columnId &&
              (spot.afterKey === null || current.position > spot.afterKey) &&
              (spot.nextKey === null || current.position < spot.nextKey)
            ) {
              return {};
            }
            const position = keyBetween(spot.afterKey, spot.nextKey);
            if (position.length > KEY_MAX && !respaced) {
              plan.tooLong = true;
              return {};
            }
            plan.moved = current;
            return { columnId, position, ...(spot.category === current.status ? {} : { status: spot.category }) };
          }, undefined, undefined, namesOf(spot, columnId));
          if (plan.tooLong) {
            // The re-spacing this move caused bumped the moved task's version too (when it is in that column).
            if ((await respace(actor, columnId)).has(id)) expected += 1;
            continue;
          }
          const entered = plan.moved !== undefined && plan.moved.columnId !== columnId;
          const over = spot !== undefined && spot.wipLimit !== null && spot.count + (entered ? 1 : 0) > spot.wipLimit;
          return { ...written, ...(over ? { warning: COLUMN_MESSAGES.overLimit(spot.name, spot.count + (entered ? 1 : 0), spot.wipLimit ?? 0) } : {}) };
        }
      },
    };
    fastify.decorate('taskMoves', service);
    done();
  },
  { name: 'task-moves', dependencies: ['repositories', 'task-writes'] },
);
