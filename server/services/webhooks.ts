import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { canManageWebhooks } from '#shared/rights.ts';
import { WEBHOOK_LIMITS, type Delivery, type Webhook, type WebhookEvent } from '#shared/schemas/webhooks.ts';
import { WEBHOOK_MESSAGES } from '#shared/webhooks.ts';
import { newId } from '../db/ids.ts';
import { AppError, validationFailed } from '../errors.ts';
import { checkOutboundUrl, OutboundRefusedError } from '../net/outbound.ts';
import type { EventTransaction } from '../repositories/events-repository.ts';
import { messageIdOf } from '../webhooks/webhook-sender.ts';
import { boardNotFound } from './boards.ts';
import type { Actor } from './actor.ts';
import { existingId } from './not-found.ts';

const webhookNotFound = () => new AppError(404, 'NOT_FOUND', WEBHOOK_MESSAGES.notFound);
const deliveryNotFound = () => new AppError(404, 'NOT_FOUND', WEBHOOK_MESSAGES.deliveryNotFound);

/** A new signing secret as the Standard Webhooks specification formats them: `whsec_` and base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export interface WebhooksService {
  list(actor: Actor, boardId: string): Promise<Webhook[]>;
  create(actor: Actor, boardId: string, fields: { url: string; events: WebhookEvent[] }): Promise<{ webhook: Webhook; secret: string }>;
  update(actor: Actor, boardId: string, hookId: string, changes: { url?: string; events?: WebhookEvent[]; active?: boolean }): Promise<Webhook>;
  delete(actor: Actor, boardId: string, hookId: string): Promise<void>;
  deliveries(actor: Actor, boardId: string, hookId: string): Promise<Delivery[]>;
  redeliver(actor: Actor, boardId: string, hookId: string, deliveryId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhooksService;
  }
}

/**
 * A board's webhooks: its admins (a personal board's owner is its admin) list and change them;
 * a member or viewer gets 403, anyone else 404 (as for a board that does not exist). Changes
 * run in a transaction with the board row locked on PostgreSQL (as labels and members do), so
 * two creations count each other and the limit of 10 holds. The URL is checked against the
 * outbound-address rule when it is set (an IP-literal address that is not public: 400), and
 * again at every delivery (a name is only resolved then). The deliveries themselves are
 * written by the task writes (repositories/webhooks-repository.ts) and sent by the outbox.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock, config } = fastify;
    const boards = fastify.boardsRepository;
    const repo = fastify.webhooksRepository;

    /** 404 unless an active member; 403 unless an admin. `lock`: the board row stays locked (PostgreSQL). */
    const asAdmin = async (actor: Actor, boardId: string, ex: EventTransaction | undefined) => {
      const m = await boards.membershipOf(existingId(boardId, boardNotFound), actor.userId, ex, ex !== undefined);
      if (m === undefined) throw boardNotFound();
      if (!canManageWebhooks(m.role)) throw new AppError(403, 'FORBIDDEN', WEBHOOK_MESSAGES.forbidden);
    };
    const found = async (boardId: string, hookId: string, ex?: EventTransaction) => {
      const hook = await repo.find(boardId, existingId(hookId, webhookNotFound), ex);
      if (hook === undefined) throw webhookNotFound();
      return hook;
    };
    /** The outbound rule's part that needs no DNS: an IP-literal host that is not public is refused now. */
    const allowedUrl = (url: string) => {
      try {
        checkOutboundUrl(url, config.outboundAllowPrivate);
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw validationFailed([{ field: 'url', message: WEBHOOK_MESSAGES.urlRefused }]);
        throw error;
      }
      return url;
    };
    const transaction = <T>(work: (trx: EventTransaction) => Promise<T>) => fastify.events.transaction(work);

    const service: WebhooksService = {
      async list(actor, boardId) {
        await asAdmin(actor, boardId, undefined);
        return repo.list(boardId);
      },

      create: (actor, boardId, fields) =>
        transaction(async (trx) => {
          await asAdmin(actor, boardId, trx);
          const url = allowedUrl(fields.url);
          if ((await repo.count(boardId, trx)) >= WEBHOOK_LIMITS.perBoard) throw new AppError(409, 'LIMIT_REACHED', WEBHOOK_MESSAGES.tooMany);
          const id = newId();
          const secret = newWebhookSecret();
          const at = clock.now().toISOString();
          await repo.insert({ id, boardId, url, events: fields.events, secret, at }, trx);
          return { webhook: { _id: id, url, events: fields.events, active: true, failingSince: null, createdAt: at }, secret };
        }),

      update: (actor, boardId, hookId, changes) =>
        transaction(async (trx) => {
          await asAdmin(actor, boardId, trx);
          await found(boardId, hookId, trx);
          if (changes.url !== undefined) allowedUrl(changes.url);
          await repo.update(boardId, hookId, { ...changes, updatedAt: clock.now().toISOString() }, trx);
          return found(boardId, hookId, trx);
        }),

      delete: (actor, boardId, hookId) =>
        transaction(async (trx) => {
          await asAdmin(actor, boardId, trx);
          // Its pending deliveries find it gone and fail without being sent.
          if (!(await repo.delete(boardId, existingId(hookId, webhookNotFound), trx))) throw webhookNotFound();
        }),

      async deliveries(actor, boardId, hookId) {
        await asAdmin(actor, boardId, undefined);
        await found(boardId, hookId);
        return repo.deliveries(hookId);
      },

      async redeliver(actor, boardId, hookId, deliveryId) {
        await transaction(async (trx) => {
          await asAdmin(actor, boardId, trx);
          await found(boardId, hookId, trx);
          const original = await repo.delivery(hookId, existingId(deliveryId, deliveryNotFound), trx);
          if (original === undefined) throw deliveryNotFound();
          // A new row (its own attempts and 24 h), carrying the original's webhook-id: it is the same message.
          await repo.insertDelivery(
            { id: newId(), webhookId: hookId, type: original.subject, body: original.textBody, messageId: messageIdOf(original), at: clock.now().toISOString() },
            trx,
          );
        });
        fastify.outbox.wake();
      },
    };
    fastify.decorate('webhooks', service);
    done();
  },
  { name: 'webhooks', dependencies: ['config', 'repositories', 'events', 'outbox'] },
);
