import type { Task } from '#shared/schemas/tasks.ts';
import { taskDeletedData, type NewEvent } from '../repositories/events-repository.ts';
import type { WriteParts } from '../repositories/task-write-statements.ts';
import type { Actor } from './actor.ts';

/** What a task write did, handed to every write hook. */
export interface TaskChange {
  kind: 'created' | 'updated' | 'deleted';
  /** The task before the write (undefined on create). */
  before: Task | undefined;
  /** The task after the write (undefined on delete). */
  after: Task | undefined;
  actor: Actor;
  now: Date;
  /** A move to another board: the names of the board it was on and of the one it is on now. */
  boards?: { from: string; to: string } | undefined;
  /** A move to another column of the same category on the same board: the two columns' names. */
  columns?: { from: string; to: string } | undefined;
}

/**
 * Adds a feature's rows to a task write (`parts.activity`, `parts.mails`, …). It runs before
 * anything is written and only describes rows: they are stored in the write's own statement
 * (PostgreSQL) or transaction (SQLite), with the task row or not at all. A hook that throws
 * stops the write.
 */
export type TaskWriteHook = (change: TaskChange, parts: WriteParts) => void;

/** Where a task is seen from: its board (every active member) and its assignee. */
export const sightOf = (task: Task) => ({ boardId: task.boardId, audience: [task.assignee] });

/**
 * The one event a change sends, addressed to who can see the task: its board (every active
 * member) and its assignee. A change that moves the task or changes its assignee also names
 * where the task was seen from before (`fromBoardId`, `fromAudience`), and each stream is sent
 * what the change means to it (events/addressing.ts): `task.created` to whoever starts seeing
 * it, `task.updated` to whoever still sees it, `task.deleted` to whoever no longer sees it.
 * The actor receives it like anyone else (their other tabs update). A `task.deleted` carries
 * the version the change produced (a deletion counts as a change).
 */
export function eventsFor(change: TaskChange): NewEvent[] {
  const { before, after, actor } = change;
  const by = { fullName: actor.fullName, email: actor.email };
  const at = change.now.toISOString();
  if (after === undefined) {
    if (before === undefined) return [];
    const data = taskDeletedData(before._id, before.version + 1, by);
    return [{ type: 'task.deleted', subjectId: before._id, ...sightOf(before), data, at }];
  }
  const event: NewEvent = { type: before === undefined ? 'task.created' : 'task.updated', subjectId: after._id, ...sightOf(after), data: { task: after, by }, at };
  if (before === undefined) return [event];
  return [
    {
      ...event,
      fromBoardId: before.boardId === after.boardId ? null : before.boardId,
      fromAudience: before.assignee === after.assignee ? null : [before.assignee],
    },
  ];
}
