import fp from 'fastify-plugin';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { AppError, validationFailed } from '../errors.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';
import type { Spot } from '../repositories/tasks-repository.ts';
import type { EditableFields, Written } from './task-writes.ts';
import { keyBetween, KEY_MAX, UnusableKeys } from './order-keys.ts';
import type { Translatable } from '#shared/i18n.ts';

export interface MoveAnswer extends Written {
  /** The WIP warning when the move leaves the column over its limit; else undefined. */
  warning?: Translatable | undefined;
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
 * A task's place in a column (decision 123). A move is a task write like a PATCH: it reads the
 * task with the writer's rights and, in the same statement, the spot (the column, the key of the
 * task it goes below and the next key; repositories/tasks-repository.ts), then writes an update of
 * `columnId`, `position` and, when the category changes, `status`: the moved task's row only,
 * never its neighbours'. On PostgreSQL that is three round trips, as for a PATCH: the session, the
 * task with its spot, the one-statement write.
 */
export default fp(
  (fastify, _opts, done) => {
    const writes = fastify.taskWrites;

    const service: TaskMoves = {
      async move(actor, id, columnId, afterId, version) {
        existingId(id);
        if (afterId === id) throw validationFailed([{ field: 'afterId', message: COLUMN_MESSAGES.stalePosition }]);
        let expected = version;
        const at = { columnId: existingId(columnId, columnInvalid), afterId: afterId === null ? null : existingId(afterId, stalePosition) };
        for (let respaced = false; ; respaced = true) {
          // What the plan found (it may run twice: again under the row lock).
          const plan: { respace: boolean; moved: Task | undefined; spot: Spot | undefined } = { respace: false, moved: undefined, spot: undefined };
          const written = await writes.update(actor, id, expected, (current, spot): EditableFields => {
            plan.spot = spot;
            const column = spot?.column;
            if (spot === undefined || column?.boardId !== current.boardId) throw columnInvalid();
            if (afterId !== null && spot.afterKey === null) throw stalePosition();
            // Already there: directly below afterId (or at the top) of that column.
            if (
              current.columnId === columnId &&
              (spot.afterKey === null || current.position > spot.afterKey) &&
              (spot.nextKey === null || current.position < spot.nextKey)
            ) {
              return {};
            }
            let position: string;
            try {
              position = keyBetween(spot.afterKey, spot.nextKey, columnId);
            } catch (error) {
              // A neighbour's stored key the library cannot read: re-spaced like a key too long.
              if (!(error instanceof UnusableKeys) || respaced) throw error;
              plan.respace = true;
              return {};
            }
            if (position.length > KEY_MAX && !respaced) {
              plan.respace = true;
              return {};
            }
            plan.moved = current;
            return { columnId, position, ...(column.category === current.status ? {} : { status: column.category }) };
          }, undefined, undefined, at);
          if (plan.respace) {
            // The re-spacing this move caused bumped the moved task's version too (when it is in that column).
            if ((await writes.respace(actor, columnId)).has(id)) expected += 1;
            continue;
          }
          const column = plan.spot?.column;
          const entered = plan.moved !== undefined && plan.moved.columnId !== columnId;
          const count = (plan.spot?.count ?? 0) + (entered ? 1 : 0);
          const over = column !== undefined && column.wipLimit !== null && count > column.wipLimit;
          return { ...written, ...(over ? { warning: COLUMN_MESSAGES.overLimit(column.name, count, column.wipLimit ?? 0) } : {}) };
        }
      },
    };
    fastify.decorate('taskMoves', service);
    done();
  },
  { name: 'task-moves', dependencies: ['repositories', 'task-writes'] },
);
