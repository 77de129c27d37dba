import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import type { TaskStatus } from '#shared/constants.ts';
import type { BulkChange, Task } from '#shared/schemas/tasks.ts';
import { checkLabelIds, checkRepeat, checkStartBeforeDeadline, type Checked } from '#shared/validation.ts';
import type { Executor } from '../db/prepared.ts';
import { validationFailed } from '../errors.ts';
import type { TaskMail } from '../mail/task-mail.ts';
import { columnsOfBoard, firstOf, type StoredColumn } from '../repositories/columns-repository.ts';
import type { WriteParts } from '../repositories/task-write-statements.ts';
import type { Actor } from './actor.ts';
import { keysBetween } from './order-keys.ts';
import { overLimitWarning } from './task-places.ts';
import type { EditableFields, TaskWrites } from './task-writes.ts';
import type { Translatable } from '#shared/i18n.ts';
import { sentences } from '../i18n/compose.ts';

/** What a change of many tasks answers: the tasks as written, or how many were deleted. */
export type BulkAnswer = { tasks: Task[] } | { deleted: number };

/** A change of many tasks done: its answer, and the WIP warnings of the columns it left over their limits (as a single write's). */
export interface BulkDone {
  answer: BulkAnswer;
  warning?: Translatable | undefined;
  /** Assignment mails held back by the sender's hourly cap (the answer says so). */
  mailsHeld?: number;
}

/** A change's one field failing for one task (the change is not valid for it): 400 on that field. */
function refuse(field: string, checked: Checked<unknown>): void {
  if (!checked.ok) throw validationFailed([{ field, message: checked.message }]);
}

/**
 * Places at the top of columns for the tasks a change moves there, keeping the order of the
 * change's ids: of the tasks going to one column the first lands topmost. One read of a board's
 * columns (with their tops) per board, inside the change's transaction; `n` keys drawn per column
 * at its first use (the most tasks that can go there).
 */
function topPlaces(n: number) {
  const boards = new Map<string, StoredColumn[]>();
  const keys = new Map<string, string[]>();
  const used = new Map<string, StoredColumn>();
  return {
    async columnsOf(ex: Executor, boardId: string): Promise<StoredColumn[]> {
      let columns = boards.get(boardId);
      if (columns === undefined) {
        columns = await columnsOfBoard(ex, boardId);
        boards.set(boardId, columns);
      }
      return columns;
    },
    /** The columns places were given out in. */
    used(): StoredColumn[] {
      return [...used.values()];
    },
    /** The next place at the top of `column`, below the places already given out. */
    next(column: StoredColumn): { columnId: string; position: string; status: TaskStatus } {
      let free = keys.get(column.id);
      if (free === undefined) {
        free = keysBetween(null, column.top, n);
        keys.set(column.id, free);
        used.set(column.id, column);
      }
      const position = free.shift();
      if (position === undefined) throw new Error('More tasks placed in a column than the change has');
      return { columnId: column.id, position, status: column.category };
    },
  };
}

/**
 * The assignment mails of a change of many tasks: every address the change assigned more than
 * one task gets one mail naming them (in the first of those tasks' writes, so the sender's
 * hourly cap counts it once) instead of one per task.
 */
function oneMailPerAssignee(mail: TaskMail, actor: Actor, titles: ReadonlyMap<string, string[]>, parts: readonly WriteParts[]): void {
  for (const [to, taskTitles] of titles) {
    if (taskTitles.length < 2) continue;
    const holders = parts.filter((p) => p.mails.some((m) => m.kind === 'assigned' && m.to === to));
    for (const p of holders) p.mails = p.mails.filter((m) => !(m.kind === 'assigned' && m.to === to));
    holders[0]?.mails.push(mail.assignedMany({ actor, to, taskTitles }));
  }
}

/**
 * The same change of many tasks (POST /api/tasks/bulk), all or nothing, through the task writes'
 * planned steps (taskWrites.updateMany / removeMany): each task as if changed alone (its rights,
 * its rules, its version, activity, events and webhooks), in one transaction. The route has
 * checked what does not depend on a task (the e-mail, the deadline's form and not being past,
 * the label ids' count); what does is refused here for the first task it fails, by name.
 * `versions`: the version each task must be at (409 CONFLICT for the first that is not).
 */
export async function changeMany(
  writes: TaskWrites,
  mail: TaskMail,
  db: Executor,
  actor: Actor,
  ids: readonly string[],
  change: BulkChange,
  versions?: ReadonlyMap<string, number>,
): Promise<BulkDone> {
  if ('delete' in change) return { answer: { deleted: await writes.removeMany(actor, ids, versions) } };
  const places = topPlaces(ids.length);
  /** The titles of the tasks the change assigns, by new assignee, in the change's order. */
  const assigned = new Map<string, string[]>();
  const each = async (current: Task, ex: Executor): Promise<{ changes: EditableFields; labelIds?: readonly string[] }> => {
    if ('columnId' in change) {
      const column = (await places.columnsOf(ex, current.boardId)).find((c) => c.id === change.columnId);
      if (column === undefined) throw validationFailed([{ field: 'columnId', message: COLUMN_MESSAGES.columnNotFound }]);
      return { changes: current.columnId === column.id ? {} : places.next(column) };
    }
    if ('status' in change) {
      if (current.status === change.status) return { changes: {} };
      return { changes: places.next(firstOf(await places.columnsOf(ex, current.boardId), change.status)) };
    }
    if ('boardId' in change) {
      if (current.boardId === change.boardId) return { changes: {} };
      const columns = await places.columnsOf(ex, change.boardId);
      // No columns: no such board; the write answers 404 (or 403) from the role it reads.
      if (columns.length === 0) return { changes: {} };
      const { columnId, position } = places.next(firstOf(columns, current.status));
      return { changes: { columnId, position } };
    }
    if ('assignee' in change) {
      if (current.assignee === change.assignee) return { changes: {} };
      if (change.assignee !== actor.email) assigned.set(change.assignee, [...(assigned.get(change.assignee) ?? []), current.taskTitle]);
      return { changes: { assigneeEmail: change.assignee } };
    }
    if ('priority' in change) return { changes: current.priority === change.priority ? {} : { priority: change.priority } };
    if ('deadline' in change) {
      if (current.deadline === change.deadline) return { changes: {} };
      refuse('deadline', checkStartBeforeDeadline(current.startAt, change.deadline, 'deadline'));
      refuse('repeat', checkRepeat(current.repeat, change.deadline !== null));
      return { changes: { deadline: change.deadline } };
    }
    const had = current.labels.map((label) => label._id);
    const labelIds = 'addLabelIds' in change ? [...had, ...change.addLabelIds.filter((id) => !had.includes(id))] : had.filter((id) => !change.removeLabelIds.includes(id));
    refuse('labelIds', checkLabelIds(labelIds));
    return { changes: {}, labelIds };
  };
  const { tasks, mailsHeld } = await writes.updateMany(actor, ids, each, {
    moveTo: 'boardId' in change ? change.boardId : undefined,
    versions,
    mails: (parts) => {
      oneMailPerAssignee(mail, actor, assigned, parts);
    },
  });
  // A move never is refused for a WIP limit: each column that received tasks and now holds
  // more than its limit is told of, as a single move into it is (overLimitWarning).
  const warnings: Translatable[] = [];
  for (const column of places.used()) {
    if (!tasks.some((task) => task.columnId === column.id)) continue;
    const warning = await overLimitWarning(db, column);
    if (warning !== undefined) warnings.push(warning);
  }
  const [first, ...more] = warnings;
  return { answer: { tasks }, mailsHeld, ...(first === undefined ? {} : { warning: sentences(first, ...more) }) };
}
