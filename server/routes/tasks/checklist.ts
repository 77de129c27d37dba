import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import {
  ChecklistEnvelope,
  ChecklistItemBody,
  ChecklistItemEnvelope,
  ChecklistItemParams,
  ChecklistItemPatchBody,
  type ChecklistItem,
} from '#shared/schemas/checklist.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { TaskParams } from '#shared/schemas/tasks.ts';
import { checkChecklistText } from '#shared/validation.ts';
import { newId } from '../../db/ids.ts';
import type { Executor } from '../../db/prepared.ts';
import { AppError, validationFailed } from '../../errors.ts';
import type { StoredItem } from '../../repositories/checklist-repository.ts';
import { answerOnce, IDEMPOTENCY_KEY_DOC, type Answer } from '../../services/idempotency.ts';
import type { ChecklistActivity } from '../../services/task-activity.ts';
import { actorOf, existingId, taskNotFound } from '../../services/task-writes.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

/** The 201 of an added item (stored as it is sent when the addition carries an Idempotency-Key). */
const itemAnswer = (data: { item: ChecklistItem; task: Task }): Answer => ({
  status: 201,
  payload: { status: 'success', message: SERVER_MESSAGES.checklistItemAdded, data },
});

const itemNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.checklistItemNotFound);

/** The counts a task row keeps of its checklist. */
const countsOf = (items: readonly StoredItem[]) => ({ done: items.filter(({ item }) => item.done).length, total: items.length });

/**
 * A task's checklist. Reading needs sight of the task; every change needs the right to edit it
 * (its board's admins and members, and its assignee: 403 for a viewer who is not the assignee),
 * and goes through `taskWrites.checklist`: the task row is locked, the items change, and the task
 * gets version + 1 with its new counts, a `checklist` activity entry and a `task.updated` event,
 * all in one transaction. No version precondition: two people ticking items at once both succeed,
 * one after the other. A task the user cannot see, or an item of another task, answers 404.
 */
const checklist: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock } = fastify;
  const tasks = fastify.tasksRepository;
  const repo = fastify.checklistRepository;
  const writes = fastify.taskWrites;

  fastify.addHook('onRequest', fastify.authenticate);

  /** The item `itemId` of the task's (locked) checklist, with all its items; 404 when it is not one of them. */
  async function itemOf(taskId: string, itemId: string, ex: Executor): Promise<{ items: StoredItem[]; found: StoredItem }> {
    existingId(itemId, itemNotFound);
    const items = await repo.list(taskId, ex);
    const found = items.find(({ item }) => item._id === itemId);
    if (found === undefined) throw itemNotFound();
    return { items, found };
  }

  fastify.get(
    '/tasks/:id/checklist',
    {
      schema: {
        tags: ['checklist'],
        summary: "A task's checklist, in order",
        description: 'Anyone who can see the task; 404 NOT_FOUND for a task I cannot see.',
        security: sessionSecurity,
        params: TaskParams,
        response: { 200: serializable(ChecklistEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const task = await tasks.findVisible(existingId(request.params.id), actorOf(request));
      if (task === undefined) throw taskNotFound();
      return { status: 'success', data: { items: (await repo.list(task._id)).map(({ item }) => item) } } as const;
    },
  );

  fastify.post(
    '/tasks/:id/checklist',
    {
      schema: {
        tags: ['checklist'],
        summary: 'Add an item at the end of the checklist',
        description:
          `201 with the item and the task after the change (new version, checklist counts). At most ${LIMITS.checklistItemsPerTask} items (409 LIMIT_REACHED). ` +
          'Needs the right to edit the task (403 FORBIDDEN for a viewer who is not its assignee). ' +
          'With `Idempotency-Key`, a repeat of the same addition answers the first answer again and adds nothing (see the header).',
        security: sessionSecurity,
        params: TaskParams,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: IDEMPOTENCY_KEY_DOC })) }),
        body: ChecklistItemBody,
        response: { 201: serializable(ChecklistItemEnvelope), ...errorResponses },
      },
    },
    // Sent by answerOnce: with an Idempotency-Key, a repeat is answered before the checks.
    (request, reply) =>
      answerOnce(request, reply, `POST /api/tasks/${request.params.id}/checklist`, itemAnswer, (once) => {
        const { text } = checkFields({ text: checkChecklistText(request.body.text) });
        const now = clock.now().toISOString();
        return writes.checklist(
          actorOf(request),
          existingId(request.params.id),
          async (task, ex) => {
            const items = await repo.list(task._id, ex);
            if (items.length >= LIMITS.checklistItemsPerTask) throw new AppError(409, 'LIMIT_REACHED', SERVER_MESSAGES.checklistFull);
            const item: ChecklistItem = { _id: newId(), text, done: false };
            await repo.insert(task._id, item, items.length, now, ex);
            const counts = countsOf(items);
            return {
              counts: { done: counts.done, total: counts.total + 1 },
              activity: [{ action: 'added', text }],
              result: (written: Task) => ({ item, task: written }),
            };
          },
          once,
        );
      }),
  );

  fastify.patch(
    '/tasks/:id/checklist/:itemId',
    {
      schema: {
        tags: ['checklist'],
        summary: 'Change, tick, untick or move a checklist item',
        description:
          '`position`: the 0-based index to move the item to; the items between shift by one (400 when it is outside the list). ' +
          'Values equal to the current ones change nothing (the task keeps its version). Needs the right to edit the task.',
        security: sessionSecurity,
        params: ChecklistItemParams,
        body: ChecklistItemPatchBody,
        response: { 200: serializable(ChecklistItemEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { body } = request;
      const text = body.text === undefined ? undefined : checkFields({ text: checkChecklistText(body.text) }).text;
      const now = clock.now().toISOString();
      const data = await writes.checklist(actorOf(request), existingId(request.params.id), async (task, ex) => {
        const { items, found } = await itemOf(task._id, request.params.itemId, ex);
        const { position } = body;
        if (position !== undefined && (position < 0 || position >= items.length)) {
          throw validationFailed([{ field: 'position', message: SERVER_MESSAGES.checklistPositionOutOfRange }]);
        }
        const item: ChecklistItem = { ...found.item, ...(text === undefined ? {} : { text }), ...(body.done === undefined ? {} : { done: body.done }) };
        const activity: ChecklistActivity[] = [];
        if (item.text !== found.item.text) activity.push({ action: 'edited', text: item.text });
        if (item.done !== found.item.done) activity.push({ action: item.done ? 'checked' : 'unchecked', text: item.text });
        if (item.text !== found.item.text || item.done !== found.item.done) {
          await repo.update(item._id, { text: item.text, done: item.done }, now, ex);
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
      });
      return { status: 'success', message: SERVER_MESSAGES.checklistItemUpdated, data } as const;
    },
  );

  fastify.delete(
    '/tasks/:id/checklist/:itemId',
    {
      schema: {
        tags: ['checklist'],
        summary: 'Delete a checklist item: 204 with an empty body',
        description: 'The items after it move up one place. Needs the right to edit the task.',
        security: sessionSecurity,
        params: ChecklistItemParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await writes.checklist(actorOf(request), existingId(request.params.id), async (task, ex) => {
        const { items, found } = await itemOf(task._id, request.params.itemId, ex);
        await repo.delete(task._id, found.item._id, found.position, ex);
        const rest = items.filter(({ item }) => item._id !== found.item._id);
        return { counts: countsOf(rest), activity: [{ action: 'deleted', text: found.item.text }], result: () => undefined };
      });
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default checklist;
