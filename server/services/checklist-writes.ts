import fp from 'fastify-plugin';
import { LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import type { ChecklistCounts, Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError, validationFailed } from '../errors.ts';
import type { StoredItem } from '../repositories/checklist-repository.ts';
import type { Actor } from './actor.ts';
import type { OnceOnly } from './idempotency.ts';
import { existingId } from './not-found.ts';
import { checklistActivity, type ChecklistActivity } from './task-activity.ts';

/** A checklist item as written, and its task after the write (new version and counts). */
export interface ItemWritten {
  item: ChecklistItem;
  task: Task;
}

export interface ChecklistWrites {
  /**
   * Adds an item with `text` at the end of the task's checklist (409 LIMIT_REACHED when it is
   * full). `once`: an addition sent with an Idempotency-Key (claimed and answered in the write's transaction).
   */
  add(actor: Actor, taskId: string, text: string, once?: OnceOnly<ItemWritten>): Promise<ItemWritten>;
  /**
   * Changes an item's text, ticks or unticks it, and moves it to the 0-based `position` (the
   * items between shift by one; 400 outside the list). Values equal to the current ones change
   * nothing (the task keeps its version).
   */
  update(actor: Actor, taskId: string, itemId: string, changes: { text?: string | undefined; done?: boolean | undefined; position?: number | undefined }): Promise<ItemWritten>;
  /** Deletes an item; the items after it move up one place. */
  remove(actor: Actor, taskId: string, itemId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    checklistWrites: ChecklistWrites;
  }
}

const itemNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.checklistItemNotFound);

/** The counts a task row keeps of its checklist. */
const countsOf = (items: readonly StoredItem[]): ChecklistCounts => ({ done: items.filter(({ item }) => item.done).length, total: items.length });

/** What a change did to the items: the task's new counts and activity; `counts` undefined: nothing changed. */
interface ItemsChanged<T> {
  counts?: ChecklistCounts;
  activity?: ChecklistActivity[];
  result: (task: Task) => T;
}

/**
 * A task's checklist changes. Each needs the right to edit the task (its board's admins and
 * members, and its assignee: 403 for a viewer who is not the assignee; 404 for a task the
 * actor cannot see or an item of another task) and runs as a task write
 * (`taskWrites.change`, services/task-writes.ts) that locks the task row first, in a
 * transaction, so concurrent changes of one checklist queue up and none is lost: no version
 * precondition. The items change through the repository under that lock; the task then gets
 * version + 1, its new counts and `updatedAt` in one statement, with the task write's own parts
 * (`taskWrites.partsFor`: the hooks' rows and the `task.updated` event) and a `checklist`
 * activity entry for each thing that happened, all in that transaction.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.checklistRepository;
    const writes = fastify.taskWrites;

    /** Runs `change` on the items of the locked task, then writes the task's new counts and the activity (see above). */
    const itemsWrite = <T>(
      actor: Actor,
      taskId: string,
      change: (task: Task, ex: Executor, at: string) => Promise<ItemsChanged<T>>,
      once?: OnceOnly<T>,
    ): Promise<T> =>
      writes.change(actor, taskId, { rights: 'edit', lockFirst: true, once }, async ({ task: before }, ex) => {
        const now = clock.now();
        const updatedAt = now.toISOString();
        const planned = await change(before, ex, updatedAt);
        if (planned.counts === undefined) return { answer: planned.result(before) };
        const after: Task = { ...before, checklist: planned.counts, updatedAt, version: before.version + 1 };
        const parts = writes.partsFor({ kind: 'updated', before, after, actor, now });
        parts.activity.push(...(planned.activity ?? []).map((entry) => checklistActivity(before._id, actor, now, entry)));
        return {
          target: { kind: 'update', before, changes: { checklistDone: planned.counts.done, checklistTotal: planned.counts.total, updatedAt } },
          parts,
          answer: (result) => planned.result(result.task ?? after),
        };
      });

    /** The item `itemId` of the task's (locked) checklist, with all its items; 404 when it is not one of them. */
    async function itemOf(taskId: string, itemId: string, ex: Executor): Promise<{ items: StoredItem[]; found: StoredItem }> {
      existingId(itemId, itemNotFound);
      const items = await repo.list(taskId, ex);
      const found = items.find(({ item }) => item._id === itemId);
      if (found === undefined) throw itemNotFound();
      return { items, found };
    }

    const service: ChecklistWrites = {
      add: (actor, taskId, text, once) =>
        itemsWrite(
          actor,
          taskId,
          async (task, ex, at) => {
            const items = await repo.list(task._id, ex);
            if (items.length >= LIMITS.checklistItemsPerTask) throw new AppError(409, 'LIMIT_REACHED', SERVER_MESSAGES.checklistFull);
            const item: ChecklistItem = { _id: newId(), text, done: false };
            await repo.insert(task._id, item, items.length, at, ex);
            const counts = countsOf(items);
            return { counts: { done: counts.done, total: counts.total + 1 }, activity: [{ action: 'added', text }], result: (written) => ({ item, task: written }) };
          },
          once,
        ),

      update: (actor, taskId, itemId, { text, done, position }) =>
        itemsWrite(actor, taskId, async (task, ex, at) => {
          const { items, found } = await itemOf(task._id, itemId, ex);
          if (position !== undefined && (position < 0 || position >= items.length)) {
            throw validationFailed([{ field: 'position', message: SERVER_MESSAGES.checklistPositionOutOfRange }]);
          }
          const item: ChecklistItem = { ...found.item, ...(text === undefined ? {} : { text }), ...(done === undefined ? {} : { done }) };
          const activity: ChecklistActivity[] = [];
          if (item.text !== found.item.text) activity.push({ action: 'edited', text: item.text });
          if (item.done !== found.item.done) activity.push({ action: item.done ? 'checked' : 'unchecked', text: item.text });
          if (item.text !== found.item.text || item.done !== found.item.done) {
            await repo.update(item._id, { text: item.text, done: item.done }, at, ex);
          }
          if (position !== undefined && position !== found.position) {
            await repo.move(task._id, item._id, found.position, position, ex);
            activity.push({ action: 'moved', text: item.text });
          }
          const result = (written: Task) => ({ item, task: written });
          if (activity.length === 0) return { result };
          const counts = countsOf(items);
          const ticked = Number(item.done) - Number(found.item.done);
          return { counts: { done: counts.done + ticked, total: counts.total }, activity, result };
        }),

      remove: (actor, taskId, itemId) =>
        itemsWrite(actor, taskId, async (task, ex) => {
          const { items, found } = await itemOf(task._id, itemId, ex);
          await repo.delete(task._id, found.item._id, found.position, ex);
          const rest = items.filter(({ item }) => item._id !== found.item._id);
          return { counts: countsOf(rest), activity: [{ action: 'deleted', text: found.item.text }], result: () => undefined };
        }),
    };
    fastify.decorate('checklistWrites', service);
    done();
  },
  { name: 'checklist-writes', dependencies: ['repositories', 'task-writes'] },
);
