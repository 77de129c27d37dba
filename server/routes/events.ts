import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../plugins/session.ts';
import { errorResponses, sessionSecurity } from './schemas.ts';

/** `GET /api/events`: the signed-in user's live board as server-sent events. */
const events: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.get(
    '/events',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['events'],
        summary: 'Live changes to the tasks I can see (server-sent events)',
        description:
          'Events: `task.created`, `task.updated` (`{task, by}`), `task.deleted` (`{task:{_id, version}, by}`), ' +
          'and `comment.*`. Each has an `id:`; reconnect with `Last-Event-ID` to get what was missed ' +
          '(at least the last 10 minutes), or `event: reset` when the id is unknown or too old. ' +
          'A comment line arrives at least every 30 s. At most 20 open streams per user (429).',
        security: sessionSecurity,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 100 })) }),
        response: {
          200: Type.String({ description: 'text/event-stream' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      await fastify.events.serve(request, reply, currentUser(request));
    },
  );
  return Promise.resolve();
};

export default events;
