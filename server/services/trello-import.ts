import type { FastifyInstance } from 'fastify';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { BOARD_POLICY } from '#shared/constants.ts';
import type { ImportCounts } from '#shared/import-messages.ts';
import { ADMIN_ROLE } from '#shared/rights.ts';
import type { Board } from '#shared/schemas/boards.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../errors.ts';
import { insertRows } from '../repositories/bulk-inserts.ts';
import { keysBetween } from './order-keys.ts';
import { appendAll, boardEvents } from './board-events.ts';
import type { Actor } from './actor.ts';
import type { ImportPlan } from './trello-export.ts';

const limitReached = () => new AppError(409, 'LIMIT_REACHED', BOARD_MESSAGES.tooManyBoards);

/** 409 LIMIT_REACHED when the actor is on as many shared boards as one account may be (checked before reading an export, and again when writing it). */
export async function checkBoardLimit(fastify: FastifyInstance, actor: Actor, ex = fastify.db): Promise<void> {
  if ((await fastify.boardsRepository.countSharedBoardsOf(actor.email, ex)) >= BOARD_POLICY.maxSharedBoardsPerAccount) throw limitReached();
}

/**
 * Writes an import plan as a new shared board, in one transaction: the board with the actor as
 * its admin and the plan's columns (instead of the two a board is made with), then its labels, tasks (assigned to the actor), their labels, checklist items,
 * comments (by the actor) and `created` activity, each table in multi-row statements. The
 * actor's apps get `board.added`; no task events, notifications or mails are written (the
 * tasks are the actor's own, on a board only the actor is on; opening the board reads them).
 */
export async function writeImport(fastify: FastifyInstance, actor: Actor, plan: ImportPlan): Promise<{ board: Board; counts: ImportCounts }> {
  const repo = fastify.boardsRepository;
  return fastify.events.transaction(async (trx) => {
    await checkBoardLimit(fastify, actor, trx);
    const now = fastify.clock.now();
    const at = now.toISOString();
    const boardId = newId();
    await repo.insertBoard({ id: boardId, name: plan.board.name, description: plan.board.description, createdAt: at }, trx);
    // The board's columns are the plan's: the two the board was made with go (they are empty).
    await trx.deleteFrom('boardColumns').where('boardId', '=', boardId).execute();
    const columnKeys = keysBetween(null, null, plan.columns.length);
    const columns = plan.columns.map((column, i) => ({ id: newId(), boardId, name: column.name, category: column.category, wipLimit: null, position: columnKeys[i] ?? '' }));
    await trx.insertInto('boardColumns').values(columns).execute();
    // Each column's cards in Trello's order, its first card topmost.
    const perColumn = plan.columns.map((_, i) => plan.tasks.filter((task) => task.column === i).length);
    const taskKeys = perColumn.map((n) => keysBetween(null, null, n));
    await repo.insertMember(
      { boardId, email: actor.email, userId: actor.userId, role: ADMIN_ROLE, addedAt: at, addedByName: actor.fullName, addedByEmail: actor.email },
      trx,
    );

    const labelIds = new Map<string, string>();
    const labels = plan.labels.map((label) => {
      const id = newId();
      labelIds.set(label.key, id);
      return { id, boardId, name: label.name, nameKey: label.key, color: label.color, createdAt: at, updatedAt: at };
    });
    await insertRows(trx, 'labels', labels);

    const tasks = [];
    const taskLabels = [];
    const items = [];
    const comments = [];
    const activity = [];
    const by = { authorId: actor.userId, authorName: actor.fullName, authorEmail: actor.email };
    for (const [i, planned] of plan.tasks.entries()) {
      const id = newId();
      // One millisecond apart, the board's first card newest: "newest first" lists them in Trello's order.
      const createdAt = new Date(now.getTime() - i).toISOString();
      tasks.push({
        id,
        workTitle: planned.workTitle,
        taskTitle: planned.taskTitle,
        assigneeEmail: actor.email,
        createdBy: actor.userId,
        deadline: planned.deadline,
        priority: 'normal' as const,
        status: planned.status,
        description: planned.description,
        createdAt,
        updatedAt: createdAt,
        version: 1,
        boardId,
        checklistDone: planned.checklist.filter((item) => item.done).length,
        checklistTotal: planned.checklist.length,
        repeatEvery: null,
        repeatUnit: null,
        columnId: columns[planned.column]?.id ?? '',
        position: taskKeys[planned.column]?.shift() ?? '',
      });
      for (const key of planned.labels) {
        const labelId = labelIds.get(key);
        if (labelId !== undefined) taskLabels.push({ taskId: id, labelId });
      }
      for (const [position, item] of planned.checklist.entries()) {
        items.push({ id: newId(), taskId: id, position, text: item.text, done: item.done ? 1 : 0, createdAt, updatedAt: createdAt });
      }
      for (const body of planned.comments) comments.push({ id: newId(), taskId: id, ...by, body, createdAt: at, updatedAt: at, mentions: '[]' });
      activity.push({ id: newId(), taskId: id, type: 'created' as const, actorId: actor.userId, actorName: actor.fullName, actorEmail: actor.email, at: createdAt, changes: null });
    }
    await insertRows(trx, 'tasks', tasks);
    await insertRows(trx, 'taskLabels', taskLabels);
    await insertRows(trx, 'checklistItems', items);
    await insertRows(trx, 'comments', comments);
    await insertRows(trx, 'taskActivity', activity);

    const facts = await repo.facts(boardId, at, trx);
    if (facts === undefined) throw new Error('The imported board is missing');
    await appendAll(trx, await boardEvents(repo, trx, boardId, at, { added: [actor.email] }));
    return {
      board: { ...facts, role: ADMIN_ROLE },
      counts: { tasks: tasks.length, labels: labels.length, checklistItems: items.length, comments: comments.length },
    };
  });
}
