import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import { MoveTaskBody, MoveTaskEnvelope } from '#shared/schemas/columns.ts';
import { FailEnvelope } from '#shared/schemas/common.ts';
import { ConflictEnvelope, TaskParams } from '#shared/schemas/tasks.ts';
import { actorOf } from '../../services/actor.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/** Moving a task to a spot in a column (services/task-moves.ts). */
const moves: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.post(
    '/tasks/:id/move',
    {
      schema: {
        tags: ['tasks'],
        summary: "Move a task into a column of its board, directly below another task (afterId) or at the top (afterId null)",
        description:
          'Rights: those to edit the task (its board\'s admins and members, its assignee); 404 for a task you cannot see, 403 for a viewer. ' +
          'A stale `version`: 409 CONFLICT with the current task. `afterId` not (any longer) in that column: 409 STALE_POSITION (ask for the column again). ' +
          "A column not of the task's board: 400. Entering a done column completes the task (its next occurrence, notifications and webhooks as completing does); " +
          'leaving one reopens it. Only the moved task changes (its version + 1, `task.updated`). ' +
          'A column left over its WIP limit is said in `message`; the move is never refused for it.',
        security: sessionSecurity,
        params: TaskParams,
        body: MoveTaskBody,
        // 409 is CONFLICT (with the current task) or STALE_POSITION (without).
        response: { 200: serializable(MoveTaskEnvelope), 409: serializable(Type.Union([ConflictEnvelope, FailEnvelope])), ...errorResponses },
      },
    },
    async (request) => {
      const { columnId, afterId, version } = request.body;
      const { task, warning } = await fastify.taskMoves.move(actorOf(request), request.params.id, columnId, afterId, version);
      return { status: 'success', message: translateFor(request, warning ?? COLUMN_MESSAGES.taskMoved), data: { task } } as const;
    },
  );

  return Promise.resolve();
};

export default moves;
