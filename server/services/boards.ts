import fp from 'fastify-plugin';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { BOARD_POLICY, type BoardRole } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { ADMIN_ROLE, boardChangeRefusal, canManageBoard, memberRemovalRefusal, type Refusal } from '#shared/rights.ts';
import type { Board, BoardNames, Member } from '#shared/schemas/boards.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { newId } from '../db/ids.ts';
import { AppError, rateLimited } from '../errors.ts';
import { ENGLISH, writeMail, type MailTexts } from '../mail/templates.ts';
import { unsubscribeFor } from '../mail/unsubscribe-tokens.ts';
import { taskDeletedData, type EventTransaction, type NewEvent } from '../repositories/events-repository.ts';
import { appendAll, boardEvents } from './board-events.ts';
import { plan } from './notifications.ts';
import type { Actor } from './actor.ts';
import { senderMailCap } from './mail-cap.ts';
import { ID_RE } from '../db/ids.ts';
import { existingId } from './not-found.ts';
import type { Translatable } from '#shared/i18n.ts';
import { sentences } from '../i18n/compose.ts';

export const boardNotFound = () => new AppError(404, 'NOT_FOUND', BOARD_MESSAGES.boardNotFound);
const memberNotFound = () => new AppError(404, 'NOT_FOUND', BOARD_MESSAGES.memberNotFound);
const forbidden = () => new AppError(403, 'FORBIDDEN', BOARD_MESSAGES.forbidden);
const personalBoard = () => new AppError(400, 'PERSONAL_BOARD', BOARD_MESSAGES.personalBoard);
const lastAdmin = () => new AppError(409, 'LAST_ADMIN', BOARD_MESSAGES.lastAdmin);
const limitReached = (message: Translatable) => new AppError(409, 'LIMIT_REACHED', message);
/** A refusal of the rights rule (shared/rights.ts) as the answer it gets; none: allowed. */
const refuse = (refusal: Refusal | undefined) => {
  if (refusal === 'personal') throw personalBoard();
  if (refusal === 'forbidden') throw forbidden();
};

/** What adding a member answers: the member, and whether the sender's hourly mail cap held its mail back. */
export interface Added {
  member: Member;
  mailHeld: boolean;
}

export interface BoardsService {
  list(actor: Actor): Promise<Board[]>;
  create(actor: Actor, fields: { name: string; description: string }): Promise<Board>;
  get(actor: Actor, boardId: string): Promise<{ board: Board; members: Member[] }>;
  /** The board's name and its columns' names, for anyone who sees a task on it (404 for everyone else). */
  names(actor: Actor, boardId: string): Promise<BoardNames>;
  /** The names of each of `boardIds` the actor sees a task on, in that order; the others are left out. */
  namesOfMany(actor: Actor, boardIds: readonly string[]): Promise<BoardNames[]>;
  update(actor: Actor, boardId: string, changes: { name?: string; description?: string }): Promise<Board>;
  delete(actor: Actor, boardId: string): Promise<void>;
  addMember(actor: Actor, boardId: string, email: string, role: BoardRole): Promise<Added>;
  changeRole(actor: Actor, boardId: string, email: string, role: BoardRole): Promise<Member>;
  removeMember(actor: Actor, boardId: string, email: string): Promise<void>;
  /**
   * The board side of deleting an account, in its transaction: every membership goes; a shared
   * board left without an active admin gets its longest-standing active member as admin; a
   * shared board with no other active member is deleted with its tasks; the personal board
   * loses the tasks assigned to the person and is deleted unless tasks on it are assigned to
   * someone else (then it stays, without members, for them).
   */
  leaveAll(trx: EventTransaction, user: Actor): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    boards: BoardsService;
  }
}

/**
 * Boards and their members. Every change runs in one `events.transaction`: rights are checked
 * on the rows it reads (with the board row locked on PostgreSQL, so two changes of one board's
 * members run one after the other and "at least one active admin" holds under concurrency), and
 * the board events, and the "added you" mail, commit with the change or not at all.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock, config, outbox } = fastify;
    const repo = fastify.boardsRepository;
    const nowIso = () => clock.now().toISOString();

    /** The actor's membership of the board, for a change (the row locked): 404 when not an active member. */
    const membership = async (trx: EventTransaction, actor: Actor, boardId: string) => {
      const found = await repo.membershipOf(existingId(boardId, boardNotFound), actor.userId, trx, true);
      if (found === undefined) throw boardNotFound();
      return found;
    };
    /** Renaming, describing, deleting, adding members, changing roles: an admin of a shared board. */
    const asAdmin = (m: { role: BoardRole; personal: boolean }) => {
      refuse(boardChangeRefusal(m));
    };
    const boardOf = async (boardId: string, role: BoardRole, at: string, trx: EventTransaction): Promise<Board> => {
      const facts = await repo.facts(boardId, at, trx);
      if (facts === undefined) throw boardNotFound();
      return { ...facts, role };
    };
    const activeAdmins = async (boardId: string, trx: EventTransaction) =>
      (await repo.activeMembers(boardId, trx)).filter((m) => canManageBoard(m.role)).length;

    /**
     * The "added you" mail, unless it is the actor's own address or the address turned board mail
     * off; counted against the actor's hourly mail cap.
     */
    const mailAddition = async (
      trx: EventTransaction,
      actor: Actor,
      board: { id: string; name: string },
      member: { email: string; role: BoardRole; hasAccount: boolean },
    ): Promise<'written' | 'held' | 'none'> => {
      if (member.email === actor.email) return 'none';
      if (!(await fastify.mailSettingsRepository.get(member.email, trx)).notifyBoards) return 'none';
      const cap = senderMailCap(actor.userId, clock.now());
      if ((await fastify.outboxRepository.senderMailsUsed(actor.userId, cap.since, trx)) >= cap.limit) return 'held';
      const origin = config.appOrigin;
      const off = unsubscribeFor(origin, config.sessionSecret, member.email, 'boards');
      const input = { appOrigin: origin, adderName: actor.fullName, boardName: board.name, role: member.role, link: `${origin}/boards/${board.id}`, hasAccount: true, unsubscribeUrl: off.url };
      const texts: MailTexts = {
        template: 'board-added',
        input,
        signUpLink: `${origin}/sign-up?email=${encodeURIComponent(member.email)}`,
        ...(actor.language === undefined ? {} : { language: actor.language }),
      };
      await outbox.enqueue(trx, { ...writeMail(texts, ENGLISH, member.hasAccount), kind: 'board-added', to: member.email, headers: off.headers, causedBy: actor.userId, texts });
      return 'written';
    };

    const service: BoardsService = {
      list: (actor) => repo.listFor(actor.userId, nowIso()),

      create: (actor, fields) =>
        fastify.events.transaction(async (trx) => {
          if ((await repo.countSharedBoardsOf(actor.email, trx)) >= BOARD_POLICY.maxSharedBoardsPerAccount) throw limitReached(BOARD_MESSAGES.tooManyBoards);
          const at = nowIso();
          const id = newId();
          await repo.insertBoard({ id, name: fields.name, description: fields.description, createdAt: at }, trx);
          await repo.insertMember(
            { boardId: id, email: actor.email, userId: actor.userId, role: ADMIN_ROLE, addedAt: at, addedByName: actor.fullName, addedByEmail: actor.email },
            trx,
          );
          const board = await boardOf(id, ADMIN_ROLE, at, trx);
          await appendAll(trx, await boardEvents(repo, trx, id, at, { added: [actor.email] }));
          return board;
        }),

      async get(actor, boardId) {
        const found = await repo.membershipOf(existingId(boardId, boardNotFound), actor.userId);
        if (found === undefined) throw boardNotFound();
        const facts = await repo.facts(boardId, nowIso());
        if (facts === undefined) throw boardNotFound();
        return { board: { ...facts, role: found.role }, members: await repo.members(boardId) };
      },

      async names(actor, boardId) {
        const [names] = await repo.namesFor(actor, [existingId(boardId, boardNotFound)]);
        if (names === undefined) throw boardNotFound();
        return names;
      },

      // An id that cannot be ours is left out like any other board the actor cannot name.
      namesOfMany: (actor, boardIds) => repo.namesFor(actor, boardIds.filter((id) => ID_RE.test(id))),

      update: (actor, boardId, changes) =>
        fastify.events.transaction(async (trx) => {
          const m = await membership(trx, actor, boardId);
          asAdmin(m);
          const at = nowIso();
          await repo.updateBoard(boardId, { ...changes, updatedAt: at }, trx);
          const board = await boardOf(boardId, m.role, at, trx);
          await appendAll(trx, await boardEvents(repo, trx, boardId, at, { othersUpdated: true }));
          return board;
        }),

      delete: (actor, boardId) =>
        fastify.events.transaction(async (trx) => {
          asAdmin(await membership(trx, actor, boardId));
          const at = nowIso();
          const members = await repo.activeMembers(boardId, trx);
          const outsiders = await repo.tasksOfOutsiders(boardId, trx);
          await repo.deleteBoard(boardId, trx);
          // Assignees who are not members saw their tasks through the assignment: the tasks go too.
          const by = { fullName: actor.fullName, email: actor.email };
          const events: NewEvent[] = outsiders.map((task) => ({
            type: 'task.deleted',
            subjectId: task.id,
            boardId,
            audience: [task.assigneeEmail],
            data: taskDeletedData(task.id, task.version, by),
            at,
          }));
          events.push(...(await boardEvents(repo, trx, boardId, at, { removed: members.map((m) => m.email) })));
          await appendAll(trx, events);
        }),

      async addMember(actor, boardId, email, role) {
        const { waitMs, hitId } = await fastify.rateLimits.memberAdditions.attempt(actor.userId);
        if (waitMs > 0 || hitId === null) throw rateLimited(waitMs);
        try {
          const added = await fastify.events.transaction(async (trx) => {
            const m = await membership(trx, actor, boardId);
            asAdmin(m);
            if ((await repo.member(boardId, email, trx)) !== undefined) throw new AppError(409, 'ALREADY_MEMBER', BOARD_MESSAGES.alreadyMember);
            if ((await repo.countMembers(boardId, trx)) >= BOARD_POLICY.maxMembers) throw limitReached(BOARD_MESSAGES.tooManyMembers);
            if ((await repo.countSharedBoardsOf(email, trx)) >= BOARD_POLICY.maxSharedBoardsPerAccount) throw limitReached(BOARD_MESSAGES.addressOnTooManyBoards);
            const account = await fastify.usersRepository.findByEmail(email, trx);
            const at = nowIso();
            await repo.insertMember(
              { boardId, email, userId: account?.id ?? null, role, addedAt: at, addedByName: actor.fullName, addedByEmail: actor.email },
              trx,
            );
            const mail = await mailAddition(trx, actor, m, { email, role, hasAccount: account !== undefined });
            // A person with an account is told in the app too (never of adding themself).
            const told = account === undefined ? [] : plan({ type: 'board_added', to: [email], by: actor, board: { _id: boardId, name: m.name }, at });
            const notes = await fastify.notificationsRepository.store(told, trx);
            const member = await repo.member(boardId, email, trx);
            if (member === undefined) throw new Error('The member just added is missing');
            const { userId: _userId, ...json } = member;
            const events = await boardEvents(repo, trx, boardId, at, { added: account === undefined ? [] : [email], othersUpdated: true });
            await appendAll(trx, [...events, ...notes.events]);
            return { member: json, mailHeld: mail === 'held', wake: mail === 'written' || notes.pushes > 0 };
          });
          if (added.wake) outbox.wake();
          return { member: added.member, mailHeld: added.mailHeld };
        } catch (error) {
          // Only additions that happened count against the hourly limit.
          await fastify.rateLimits.memberAdditions.refund(hitId);
          if (isUniqueViolation(error)) throw new AppError(409, 'ALREADY_MEMBER', BOARD_MESSAGES.alreadyMember);
          throw error;
        }
      },

      changeRole: (actor, boardId, email, role) =>
        fastify.events.transaction(async (trx) => {
          const m = await membership(trx, actor, boardId);
          asAdmin(m);
          const target = await repo.member(boardId, email, trx);
          if (target === undefined) throw memberNotFound();
          const { userId, ...json } = target;
          if (target.role === role) return json;
          if (canManageBoard(target.role) && userId !== null && (await activeAdmins(boardId, trx)) <= 1) throw lastAdmin();
          await repo.setRole(boardId, email, role, trx);
          const at = nowIso();
          await appendAll(trx, await boardEvents(repo, trx, boardId, at, { othersUpdated: true }));
          return { ...json, role };
        }),

      removeMember: (actor, boardId, email) =>
        fastify.events.transaction(async (trx) => {
          const m = await membership(trx, actor, boardId);
          // Anyone may leave; only an admin removes someone else.
          refuse(memberRemovalRefusal(m, email === actor.email));
          const target = await repo.member(boardId, email, trx);
          if (target === undefined) throw memberNotFound();
          if (canManageBoard(target.role) && target.userId !== null && (await activeAdmins(boardId, trx)) <= 1) throw lastAdmin();
          await repo.deleteMember(boardId, email, trx);
          const at = nowIso();
          await appendAll(trx, await boardEvents(repo, trx, boardId, at, { removed: target.userId === null ? [] : [email], othersUpdated: true }));
        }),

      async leaveAll(trx, user) {
        const at = nowIso();
        const events: NewEvent[] = [];
        const by = { fullName: user.fullName, email: user.email };
        for (const board of await repo.membershipsOf(user.userId, trx)) {
          if (board.personal) continue;
          await repo.lock(board.id, trx);
          const others = (await repo.activeMembers(board.id, trx)).filter((m) => m.userId !== user.userId);
          const heir = others[0];
          if (heir === undefined) {
            const outsiders = await repo.tasksOfOutsiders(board.id, trx);
            await repo.deleteBoard(board.id, trx);
            for (const task of outsiders) {
              events.push({ type: 'task.deleted', subjectId: task.id, boardId: board.id, audience: [task.assigneeEmail], data: taskDeletedData(task.id, task.version, by), at });
            }
            continue;
          }
          // The longest-standing active member (activeMembers is ordered by when they were added).
          if (!others.some((m) => canManageBoard(m.role))) await repo.setRole(board.id, heir.email, ADMIN_ROLE, trx);
          await repo.deleteMember(board.id, board.email, trx);
          events.push(...(await boardEvents(repo, trx, board.id, at, { othersUpdated: true })));
        }
        // The personal board (its id is the account's): what only the person saw goes with them.
        await repo.deleteTasksAssignedTo(user.userId, user.email, trx);
        await repo.deleteMember(user.userId, user.email, trx);
        if (!(await repo.hasTasks(user.userId, trx))) await repo.deleteBoard(user.userId, trx);
        await appendAll(trx, events);
      },
    };
    fastify.decorate('boards', service);
    done();
  },
  { name: 'boards', dependencies: ['config', 'repositories', 'events', 'outbox', 'rate-limit'] },
);

/** The message of a member addition's answer: what happened, and a word about mail the cap held back. */
export function addedMessage(member: Member, mailHeld: boolean): Translatable {
  const message = member.status === 'invited' ? BOARD_MESSAGES.invited : BOARD_MESSAGES.memberAdded;
  return mailHeld ? sentences(message, SERVER_MESSAGES.mailCapReached) : message;
}
