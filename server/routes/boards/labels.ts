import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { LIMITS } from '#shared/constants.ts';
import { BoardParams } from '#shared/schemas/boards.ts';
import { CreateLabelBody, LabelEnvelope, LabelListEnvelope, LabelParams, UpdateLabelBody } from '#shared/schemas/labels.ts';
import { checkLabelName } from '#shared/validation.ts';
import { actorOf } from '../../services/actor.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

const NOT_A_MEMBER = 'Anyone who is not an active member of the board gets 404, as for a board that does not exist.';
const EDITORS = `${NOT_A_MEMBER} Admins and members change labels; a viewer gets 403 FORBIDDEN.`;
const NAME_TAKEN = 'A name the board already has, ignoring case: 409 LABEL_EXISTS.';
const REFRESH = 'The board\'s active members get a live `board.updated` event.';

/** A board's labels (services/labels.ts). */
const labels: FastifyPluginAsyncTypebox = (fastify) => {
  const service = fastify.labels;
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.get(
    '/boards/:id/labels',
    {
      schema: {
        tags: ['labels'],
        summary: "A board's labels, by name (any member)",
        description: NOT_A_MEMBER,
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: serializable(LabelListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { labels: await service.list(actorOf(request), request.params.id) } }) as const,
  );

  fastify.post(
    '/boards/:id/labels',
    {
      schema: {
        tags: ['labels'],
        summary: 'Create a label on a board (admin or member)',
        description:
          `${EDITORS} Name trimmed, ${LIMITS.labelNameMin} to ${LIMITS.labelNameMax} characters. ${NAME_TAKEN} ` +
          `At most ${LIMITS.labelsPerBoard} labels per board: 409 LIMIT_REACHED. ${REFRESH}`,
        security: sessionSecurity,
        params: BoardParams,
        body: CreateLabelBody,
        response: { 201: serializable(LabelEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { name } = checkFields({ name: checkLabelName(request.body.name) });
      const label = await service.create(actorOf(request), request.params.id, { name, color: request.body.color });
      return reply.code(201).send({ status: 'success', message: translateFor(request, BOARD_MESSAGES.labelCreated), data: { label } });
    },
  );

  fastify.patch(
    '/boards/:id/labels/:labelId',
    {
      schema: {
        tags: ['labels'],
        summary: 'Rename or recolor a label (admin or member)',
        description: `${EDITORS} A label not on this board: 404. ${NAME_TAKEN} The tasks carrying it show the change. ${REFRESH}`,
        security: sessionSecurity,
        params: LabelParams,
        body: UpdateLabelBody,
        response: { 200: serializable(LabelEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { name, color } = request.body;
      const fields = checkFields(name === undefined ? {} : { name: checkLabelName(name) });
      const label = await service.update(actorOf(request), request.params.id, request.params.labelId, {
        ...fields,
        ...(color === undefined ? {} : { color }),
      });
      return { status: 'success', message: translateFor(request, BOARD_MESSAGES.labelSaved), data: { label } } as const;
    },
  );

  fastify.delete(
    '/boards/:id/labels/:labelId',
    {
      schema: {
        tags: ['labels'],
        summary: 'Delete a label; it leaves every task carrying it: 204 (admin or member)',
        description: `${EDITORS} A label not on this board: 404. The tasks keep their versions; ${REFRESH}`,
        security: sessionSecurity,
        params: LabelParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id, request.params.labelId);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default labels;
