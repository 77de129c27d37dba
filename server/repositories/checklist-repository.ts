import { sql, type Kysely } from 'kysely';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import { newId } from '../db/ids.ts';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** An item with its place in the list. */
export interface StoredItem {
  item: ChecklistItem;
  position: number;
}

interface ItemRow {
  id: string;
  position: number;
  text: string;
  done: number;
}

const toItem = (row: ItemRow): StoredItem => ({ item: { _id: row.id, text: row.text, done: row.done === 1 }, position: row.position });

/**
 * The items of tasks' checklists. Positions are 0-based and dense within a task: every change
 * renumbers what it shifts in the same transaction. The callers (services/checklist-writes.ts,
 * inside `taskWrites.change`) hold the task row's lock, so changes of one checklist never interleave.
 */
export function createChecklistRepository(db: Kysely<DB>) {
  const list = prepare<{ taskId: string }, ItemRow>(
    db.selectFrom('checklistItems').select(['id', 'position', 'text', 'done']).where('taskId', '=', slot('taskId')).orderBy('position'),
  );

  return {
    /** A task's items in order. */
    async list(taskId: string, ex: Executor = db): Promise<StoredItem[]> {
      return (await list.execute(ex, { taskId })).rows.map(toItem);
    },

    async insert(taskId: string, item: ChecklistItem, position: number, now: string, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('checklistItems')
        .values({ id: item._id, taskId, position, text: item.text, done: item.done ? 1 : 0, createdAt: now, updatedAt: now })
        .execute();
    },

    async update(id: string, changes: { text?: string; done?: boolean }, now: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('checklistItems')
        .set({
          ...(changes.text === undefined ? {} : { text: changes.text }),
          ...(changes.done === undefined ? {} : { done: changes.done ? 1 : 0 }),
          updatedAt: now,
        })
        .where('id', '=', id)
        .execute();
    },

    /** Moves the item at `from` to `to`, shifting the ones between by one place (one statement). */
    async move(taskId: string, id: string, from: number, to: number, ex: Executor = db): Promise<void> {
      const shift = from < to ? -1 : 1;
      await ex
        .updateTable('checklistItems')
        .set({ position: sql<number>`case when id = ${id} then ${to} else position + ${shift} end` })
        .where('taskId', '=', taskId)
        .where('position', '>=', Math.min(from, to))
        .where('position', '<=', Math.max(from, to))
        .execute();
    },

    /** Deletes the item at `position` and closes the gap behind it. */
    async delete(taskId: string, id: string, position: number, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('checklistItems').where('id', '=', id).execute();
      await ex
        .updateTable('checklistItems')
        .set({ position: sql<number>`position - 1` })
        .where('taskId', '=', taskId)
        .where('position', '>', position)
        .execute();
    },

    /** `items` (another task's, in order) as a new task's checklist, unticked: a repeating task's next occurrence. */
    async insertUnticked(taskId: string, items: readonly StoredItem[], now: string, ex: Executor = db): Promise<void> {
      if (items.length === 0) return;
      await ex
        .insertInto('checklistItems')
        .values(items.map(({ item, position }) => ({ id: newId(), taskId, position, text: item.text, done: 0, createdAt: now, updatedAt: now })))
        .execute();
    },
  };
}

export type ChecklistRepository = ReturnType<typeof createChecklistRepository>;
