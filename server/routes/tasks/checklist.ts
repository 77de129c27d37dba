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
} from '#shared/schemas/checklist.ts';
import { TaskParams } from '#shared/schemas/tasks.ts';
import { checkChecklistText } from '#shared/validation.ts';
import { actorOf } from '../../services/actor.ts';
import type { ItemWritten } from '../../services/checklist-writes.ts';
import { answerOnce, IDEMPOTENCY_KEY_DOC, type Answer } from '../../services/idempotency.ts';
import { existingId, taskNotFound } from '../../services/not-found.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';
import type { FastifyRequest } from 'fastify';

/** The 201 of an added item (stored as it is sent when the addition carries an Idempotency-Key). */
const itemAnswer =
  (request: FastifyRequest) =>
  (data: ItemWritten): Answer => ({
    status: 201,
    payload: { status: 'success', message: translateFor(request, SERVER_MESSAGES.checklistItemAdded), data },
  });

/**
 * A task's checklist. Reading needs sight of the task (404 otherwise); every change is made by
 * `fastify.checklistWrites` (services/checklist-writes.ts): it needs the right to edit the task,
 * and the items, the task's counts and version, a `checklist` activity entry and a
 * `task.updated` event are written in one transaction. No version precondition: two people
 * ticking items at once both succeed, one after the other.
 */
const checklist: FastifyPluginAsyncTypebox = (fastify) => {
  const tasks = fastify.tasksRepository;
  const repo = fastify.checklistRepository;
  const writes = fastify.checklistWrites;

  fastify.addHook('onRequest', fastify.authenticate);

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
      answerOnce(request, reply, `POST /api/tasks/${request.params.id}/checklist`, itemAnswer(request), (once) => {
        const { text } = checkFields({ text: checkChecklistText(request.body.text) });
        return writes.add(actorOf(request), existingId(request.params.id), text, once);
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
      const changes = { text, done: body.done, position: body.position };
      const data = await writes.update(actorOf(request), existingId(request.params.id), request.params.itemId, changes);
      return { status: 'success', message: translateFor(request, SERVER_MESSAGES.checklistItemUpdated), data } as const;
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
      await writes.remove(actorOf(request), existingId(request.params.id), request.params.itemId);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default checklist;
