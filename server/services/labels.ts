import fp from 'fastify-plugin';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { LIMITS, type LabelColor } from '#shared/constants.ts';
import { canChangeLabels } from '#shared/rights.ts';
import type { Label } from '#shared/schemas/labels.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../errors.ts';
import type { EventTransaction } from '../repositories/events-repository.ts';
import { appendAll, boardEvents } from './board-events.ts';
import { boardNotFound } from './boards.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';

const labelNotFound = () => new AppError(404, 'NOT_FOUND', BOARD_MESSAGES.labelNotFound);
const labelExists = () => new AppError(409, 'LABEL_EXISTS', BOARD_MESSAGES.labelExists);

export interface LabelsService {
  list(actor: Actor, boardId: string): Promise<Label[]>;
  create(actor: Actor, boardId: string, fields: { name: string; color: LabelColor }): Promise<Label>;
  update(actor: Actor, boardId: string, labelId: string, changes: { name?: string; color?: LabelColor }): Promise<Label>;
  delete(actor: Actor, boardId: string, labelId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    labels: LabelsService;
  }
}

/**
 * A board's labels. Any active member reads them; admins and members change them (a personal
 * board's owner is its admin). A change runs in one `events.transaction` with the board row
 * locked on PostgreSQL (as membership changes do, services/boards.ts), so two creations on one
 * board count each other and the 100-label limit holds; the unique (board_id, name_key) index
 * decides "name taken" on both databases, renames included. Every change sends `board.updated`
 * to the board's active members (the actor's other tabs too): open boards refetch the labels and
 * their cards, which is also how a deleted label leaves the cards showing it (decision 058).
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const boards = fastify.boardsRepository;
    const repo = fastify.labelsRepository;

    /** The actor's role on the board: 404 when not an active member; `edit`: 403 for a viewer. Locks the board row for a change. */
    const roleOn = async (actor: Actor, boardId: string, edit: EventTransaction | undefined) => {
      const m = await boards.membershipOf(existingId(boardId, boardNotFound), actor.userId, edit, edit !== undefined);
      if (m === undefined) throw boardNotFound();
      if (edit !== undefined && !canChangeLabels(m.role)) throw new AppError(403, 'FORBIDDEN', BOARD_MESSAGES.labelsForbidden);
      return m.role;
    };
    /** Runs a label change and its board.updated events in one transaction; a name taken meanwhile is 409. */
    const change = async <T>(boardId: string, write: (trx: EventTransaction, at: string) => Promise<{ value: T; changed: boolean }>) => {
      try {
        return await fastify.events.transaction(async (trx) => {
          const at = clock.now().toISOString();
          const { value, changed } = await write(trx, at);
          if (changed) await appendAll(trx, await boardEvents(boards, trx, boardId, at, { othersUpdated: true }));
          return value;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw labelExists();
        throw error;
      }
    };
    const found = async (boardId: string, labelId: string, trx: EventTransaction) => {
      const label = await repo.find(boardId, existingId(labelId, labelNotFound), trx);
      if (label === undefined) throw labelNotFound();
      return label;
    };

    const service: LabelsService = {
      async list(actor, boardId) {
        await roleOn(actor, boardId, undefined);
        return repo.list(boardId);
      },

      create: (actor, boardId, fields) =>
        change(boardId, async (trx, at) => {
          await roleOn(actor, boardId, trx);
          if ((await repo.count(boardId, trx)) >= LIMITS.labelsPerBoard) throw new AppError(409, 'LIMIT_REACHED', BOARD_MESSAGES.tooManyLabels);
          const id = newId();
          await repo.insert({ id, boardId, name: fields.name, color: fields.color, at }, trx);
          return { value: { _id: id, name: fields.name, color: fields.color }, changed: true };
        }),

      update: (actor, boardId, labelId, changes) =>
        change(boardId, async (trx, at) => {
          await roleOn(actor, boardId, trx);
          const before = await found(boardId, labelId, trx);
          const after = { ...before, ...changes };
          if (after.name === before.name && after.color === before.color) return { value: before, changed: false };
          await repo.update(boardId, labelId, { ...changes, updatedAt: at }, trx);
          return { value: after, changed: true };
        }),

      delete: (actor, boardId, labelId) =>
        change(boardId, async (trx) => {
          await roleOn(actor, boardId, trx);
          // The label's task_labels rows cascade: it leaves every task, whose versions stay (decision 058).
          if (!(await repo.delete(boardId, existingId(labelId, labelNotFound), trx))) throw labelNotFound();
          return { value: undefined, changed: true };
        }),
    };
    fastify.decorate('labels', service);
    done();
  },
  { name: 'labels', dependencies: ['repositories', 'events'] },
);
