import { BOARD_ROLES } from '#shared/constants.ts';
import type { ActiveMember, BoardsRepository } from '../repositories/boards-repository.ts';
import { appendEvent, type EventTransaction, type NewEvent } from '../repositories/events-repository.ts';

/*
 * The board events and the activation of invitations, apart from the boards service so that the
 * admin command (which has no app) can use them without loading the app's modules.
 */

/**
 * Who gets which board event after a change of one board: `added` (active members who can now
 * see it: `board.added`), `removed` (addresses that lost it: `board.removed`) and, with
 * `othersUpdated`, every other active member (`board.updated`).
 */
export interface BoardFanout {
  added?: readonly string[];
  removed?: readonly string[];
  othersUpdated?: boolean;
}

/**
 * The events of one board change, read in the change's transaction after its writes. Board JSON
 * carries the recipient's role, so there is one event per event type and role among the
 * recipients (at most three), each with that group's audience; every other field is the same
 * for everyone on the board. A board event's `taskId` is the board's id (the column is required)
 * and its `boardId` the board's id too.
 */
export async function boardEvents(repo: BoardsRepository, trx: EventTransaction, boardId: string, at: string, fanout: BoardFanout): Promise<NewEvent[]> {
  const events: NewEvent[] = [];
  const removed = fanout.removed ?? [];
  if (removed.length > 0) {
    events.push({ type: 'board.removed', subjectId: boardId, boardId, audience: [...removed], data: { board: { _id: boardId } }, at });
  }
  const added = new Set(fanout.added ?? []);
  if (added.size === 0 && fanout.othersUpdated !== true) return events;
  const facts = await repo.facts(boardId, at, trx);
  if (facts === undefined) return events;
  const members = await repo.activeMembers(boardId, trx);
  const groups: [NewEvent['type'], (m: ActiveMember) => boolean][] = [
    ['board.added', (m) => added.has(m.email)],
    ['board.updated', (m) => fanout.othersUpdated === true && !added.has(m.email)],
  ];
  for (const [type, receives] of groups) {
    for (const role of BOARD_ROLES) {
      const audience = members.filter((m) => m.role === role && receives(m)).map((m) => m.email);
      if (audience.length > 0) events.push({ type, subjectId: boardId, boardId, audience, data: { board: { ...facts, role } }, at });
    }
  }
  return events;
}

/** Appends the events, as the last statements of the transaction (see appendEvent). */
export async function appendAll(trx: EventTransaction, events: readonly NewEvent[]): Promise<void> {
  for (const event of events) await appendEvent(trx, event);
}

/**
 * An account was just registered with `user.email` (its code proved the address): every
 * invitation of that address becomes an active membership, in the registering transaction.
 * The person gets `board.added` for each such board, its other members `board.updated`.
 */
export async function activateInvitations(repo: BoardsRepository, trx: EventTransaction, user: { id: string; email: string }, at: string): Promise<number> {
  const boardIds = await repo.activate(user.email, user.id, trx);
  const events: NewEvent[] = [];
  for (const boardId of boardIds) events.push(...(await boardEvents(repo, trx, boardId, at, { added: [user.email], othersUpdated: true })));
  await appendAll(trx, events);
  return boardIds.length;
}
