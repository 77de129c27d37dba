import { isBoardEvent, taskDeletedData, type EventType, type LoggedEvent } from '../repositories/events-repository.ts';

/** What addressing needs to know about a stream: its user's e-mail and the boards they are an active member of. */
export interface Addressee {
  email: string;
  boards: ReadonlySet<string>;
}

/** Whether `who` sees a task seen from `boardId` (its active members) and `audience` (e-mails). */
const sees = (who: Addressee, boardId: string | null, audience: readonly string[]) =>
  (boardId !== null && who.boards.has(boardId)) || audience.includes(who.email);

/**
 * What `event` means to `who`: the type to send them, or undefined when it is not theirs.
 * A board event goes to its audience only. A task or comment event goes to whoever sees the
 * task (its board's members and its assignee); a `task.updated` that moved the task or changed
 * its assignee is, to each person, what it changed for them: `task.updated` when they see the
 * task before and after, `task.deleted` when only before, `task.created` when only after.
 */
export function viewOf(event: LoggedEvent, who: Addressee): EventType | undefined {
  if (isBoardEvent(event.type)) return event.audience.includes(who.email) ? event.type : undefined;
  const after = sees(who, event.boardId, event.audience);
  if (event.type !== 'task.updated' || (event.fromBoardId === null && event.fromAudience === null)) return after ? event.type : undefined;
  const before = sees(who, event.fromBoardId ?? event.boardId, event.fromAudience ?? event.audience);
  if (before) return after ? 'task.updated' : 'task.deleted';
  return after ? 'task.created' : undefined;
}

/**
 * The board whose task events `email` receives from `event` on (`added`) or no longer
 * (`!added`): a `board.added` or `board.removed` addressed to them. Applied in log order, as
 * the event passes their stream.
 */
export function boardChangeOf(event: LoggedEvent, email: string): { boardId: string; added: boolean } | undefined {
  if ((event.type !== 'board.added' && event.type !== 'board.removed') || event.boardId === null) return undefined;
  if (!event.audience.includes(email)) return undefined;
  return { boardId: event.boardId, added: event.type === 'board.added' };
}

/** The data of `event` sent as `type`: as stored, or for a `task.updated` sent as `task.deleted`, `{task: {_id, version}, by}`. */
export function payloadAs(event: LoggedEvent, type: EventType): string {
  if (type === event.type || type !== 'task.deleted') return event.payload;
  const { task, by } = JSON.parse(event.payload) as { task: { _id: string; version: number }; by: unknown };
  return JSON.stringify(taskDeletedData(task._id, task.version, by));
}
