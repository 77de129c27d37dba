import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkColumnName, COLUMN_MESSAGES, COLUMN_POLICY } from '#shared/column-messages.ts';
import { BoardParams } from '#shared/schemas/boards.ts';
import { ColumnEnvelope, ColumnListEnvelope, ColumnParams, CreateColumnBody, DeleteColumnQuery, UpdateColumnBody } from '#shared/schemas/columns.ts';
import { actorOf } from '../../services/actor.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

const NOT_A_MEMBER = 'Anyone who is not an active member of the board gets 404, as for a board that does not exist.';
const ADMINS = `${NOT_A_MEMBER} Admins of a shared board and the owner of a personal board change its columns; anyone else on it gets 403 FORBIDDEN.`;
const NAME_TAKEN = 'A name the board already has, ignoring case: 409 COLUMN_EXISTS.';
const LAST = 'A board keeps at least one todo and one done column: 409 LAST_COLUMN.';
const REFRESH = "The board's active members get a live `board.updated` event with the board's columns.";

/** A board's columns (services/columns.ts). */
const columns: FastifyPluginAsyncTypebox = (fastify) => {
  const service = fastify.columns;
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.get(
    '/boards/:id/columns',
    {
      schema: {
        tags: ['columns'],
        summary: "A board's columns, left to right, each with how many of its tasks you can see (any member)",
        description: NOT_A_MEMBER,
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: serializable(ColumnListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { columns: await service.list(actorOf(request), request.params.id) } }) as const,
  );

  fastify.post(
    '/boards/:id/columns',
    {
      schema: {
        tags: ['columns'],
        summary: 'Add a column to a board (admin)',
        description:
          `${ADMINS} Name trimmed, ${COLUMN_POLICY.nameMin} to ${COLUMN_POLICY.nameMax} characters. ${NAME_TAKEN} ` +
          `At most ${COLUMN_POLICY.maxPerBoard} columns per board: 409 LIMIT_REACHED. Without afterId it goes last; afterId null: first. ${REFRESH}`,
        security: sessionSecurity,
        params: BoardParams,
        body: CreateColumnBody,
        response: { 201: serializable(ColumnEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { name } = checkFields({ name: checkColumnName(request.body.name) });
      const { category, wipLimit, afterId } = request.body;
      const column = await service.create(actorOf(request), request.params.id, { name, category, wipLimit, afterId });
      return reply.code(201).send({ status: 'success', message: translateFor(request, COLUMN_MESSAGES.columnCreated), data: { column } });
    },
  );

  fastify.patch(
    '/boards/:id/columns/:columnId',
    {
      schema: {
        tags: ['columns'],
        summary: 'Rename a column, set its WIP limit or category, or move it (admin)',
        description:
          `${ADMINS} A column not on this board: 404. ${NAME_TAKEN} The category changes only while the column is empty ` +
          `(409 COLUMN_NOT_EMPTY). ${LAST} afterId: the column it follows, null: first. ${REFRESH}`,
        security: sessionSecurity,
        params: ColumnParams,
        body: UpdateColumnBody,
        response: { 200: serializable(ColumnEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { name, category, wipLimit, afterId } = request.body;
      const fields = checkFields(name === undefined ? {} : { name: checkColumnName(name) });
      const { column, warning } = await service.update(actorOf(request), request.params.id, request.params.columnId, { ...fields, category, wipLimit, afterId });
      return { status: 'success', message: translateFor(request, warning ?? COLUMN_MESSAGES.columnSaved), data: { column } } as const;
    },
  );

  fastify.delete(
    '/boards/:id/columns/:columnId',
    {
      schema: {
        tags: ['columns'],
        summary: 'Delete a column: 204 (admin)',
        description:
          `${ADMINS} A column not on this board: 404. ${LAST} A column holding tasks needs ?moveTo=<columnId> ` +
          `(409 COLUMN_NOT_EMPTY otherwise), a column of the same category (400 otherwise): its tasks keep their order at the end of that column, ` +
          `their versions go up and each sends task.updated. ${REFRESH}`,
        security: sessionSecurity,
        params: ColumnParams,
        querystring: DeleteColumnQuery,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id, request.params.columnId, request.query.moveTo);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default columns;
