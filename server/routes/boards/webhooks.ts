import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BoardParams } from '#shared/schemas/boards.ts';
import {
  CreatedWebhookEnvelope,
  CreateWebhookBody,
  DeliveryListEnvelope,
  DeliveryParams,
  UpdateWebhookBody,
  WEBHOOK_LIMITS,
  WebhookEnvelope,
  WebhookListEnvelope,
  WebhookParams,
} from '#shared/schemas/webhooks.ts';
import { checkWebhookUrl, WEBHOOK_MESSAGES } from '#shared/webhooks.ts';
import { actorOf } from '../../services/actor.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

const RIGHTS = 'Admins only: a member or viewer gets 403 FORBIDDEN; anyone who is not an active member of the board gets 404, as for a board that does not exist.';
const URL_RULE =
  'The URL must be http: or https:; an IP address that is not public (loopback, private, link-local…) is refused at once (400, field `url`), and a name is checked when each delivery resolves it.';

/** A board's webhooks and their delivery logs (services/webhooks.ts). */
const webhooks: FastifyPluginAsyncTypebox = (fastify) => {
  const service = fastify.webhooks;
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.get(
    '/boards/:id/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: "A board's webhooks, oldest first (admin)",
        description: RIGHTS,
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: serializable(WebhookListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { webhooks: await service.list(actorOf(request), request.params.id) } }) as const,
  );

  fastify.post(
    '/boards/:id/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Add a webhook; its signing secret is answered this once (admin)',
        description:
          `${RIGHTS} ${URL_RULE} \`events\`: the task and comment event types it receives. ` +
          'A task moved to another board is `task.deleted` to the board it left and `task.created` to the one it arrived on. ' +
          `At most ${WEBHOOK_LIMITS.perBoard} webhooks per board: 409 LIMIT_REACHED. Deliveries follow the Standard Webhooks specification.`,
        security: sessionSecurity,
        params: BoardParams,
        body: CreateWebhookBody,
        response: { 201: serializable(CreatedWebhookEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { url } = checkFields({ url: checkWebhookUrl(request.body.url) });
      const created = await service.create(actorOf(request), request.params.id, { url, events: request.body.events });
      return reply.code(201).send({ status: 'success', message: translateFor(request, WEBHOOK_MESSAGES.created), data: created });
    },
  );

  fastify.patch(
    '/boards/:id/webhooks/:hookId',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Change, pause or resume a webhook (admin)',
        description: `${RIGHTS} ${URL_RULE} \`active: true\` resumes a paused webhook and clears its failure clock.`,
        security: sessionSecurity,
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: serializable(WebhookEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { url, events, active } = request.body;
      const fields = checkFields(url === undefined ? {} : { url: checkWebhookUrl(url) });
      const webhook = await service.update(actorOf(request), request.params.id, request.params.hookId, {
        ...fields,
        ...(events === undefined ? {} : { events }),
        ...(active === undefined ? {} : { active }),
      });
      return { status: 'success', message: translateFor(request, WEBHOOK_MESSAGES.saved), data: { webhook } } as const;
    },
  );

  fastify.delete(
    '/boards/:id/webhooks/:hookId',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook: 204 (admin)',
        description: `${RIGHTS} Its pending deliveries are dropped.`,
        security: sessionSecurity,
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id, request.params.hookId);
      return reply.code(204).send(null);
    },
  );

  fastify.get(
    '/boards/:id/webhooks/:hookId/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        summary: `A webhook's newest ${WEBHOOK_LIMITS.deliveriesShown} deliveries (admin)`,
        description: `${RIGHTS} \`status\`: pending (not yet delivered; retried for 24 hours), delivered, or failed; \`responseStatus\`: the receiver's last answer.`,
        security: sessionSecurity,
        params: WebhookParams,
        response: { 200: serializable(DeliveryListEnvelope), ...errorResponses },
      },
    },
    async (request) =>
      ({ status: 'success', data: { deliveries: await service.deliveries(actorOf(request), request.params.id, request.params.hookId) } }) as const,
  );

  fastify.post(
    '/boards/:id/webhooks/:hookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Send a delivery again: 202 (admin)',
        description: `${RIGHTS} A new delivery of the same event, with the same \`webhook-id\` (a receiver that already has it may drop it).`,
        security: sessionSecurity,
        params: DeliveryParams,
        response: {
          202: serializable(Type.Object({ status: Type.Literal('success'), message: Type.String(), data: Type.Null() })),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { id, hookId, deliveryId } = request.params;
      await service.redeliver(actorOf(request), id, hookId, deliveryId);
      return reply.code(202).send({ status: 'success', message: translateFor(request, WEBHOOK_MESSAGES.redelivering), data: null });
    },
  );

  return Promise.resolve();
};

export default webhooks;
