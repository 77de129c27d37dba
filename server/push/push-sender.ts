import fp from 'fastify-plugin';
import webpush from 'web-push';
import { HOUR, SECOND } from '../clock.ts';
import { createOutboundAgents, outboundRequest, OutboundRefusedError } from '../net/outbound.ts';
import type { PushPayload } from '#shared/schemas/notifications.ts';
import { storedLanguage } from '../i18n/translate.ts';
import type { StoredPush } from '../repositories/notifications-repository.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';
import { notificationText, pushTitle } from '../services/notifications.ts';

/** The outbox `kind` of a push (one notification to one subscription). */
export const PUSH_KIND = 'push';

export const PUSH_POLICY = {
  /** How long a push service keeps a message for a device that is offline (the `TTL` header). */
  ttlSeconds: (24 * HOUR) / SECOND,
  /** One delivery attempt (DNS, connect, answer) must finish within this; else it is retried. */
  timeoutMs: 10 * SECOND,
} as const;

/** What one attempt came to: delivered, worth retrying (with the outbox's back-off), or failed for good. */
export type DeliveryResult =
  | { ok: true }
  /** `expected`: a normal end (the subscription is gone), logged at info rather than warn. */
  | { ok: false; retry: boolean; reason: string; expected?: boolean };

export interface PushSender {
  /** Delivers one outbox row of kind `push`. Never throws for the push service's or the network's failures. */
  deliver(row: OutboxRow): Promise<DeliveryResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    pushSender: PushSender;
  }
}

const failed = (reason: string, expected = false): DeliveryResult => ({ ok: false, retry: false, reason, expected });
const retry = (reason: string): DeliveryResult => ({ ok: false, retry: true, reason });

/** A push endpoint is a capability URL (whoever holds it can push to the device): logs name its origin only. */
export function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Sends pushes (RFC 8030) for the outbox worker. `web-push` builds the request — the payload
 * encrypted for the subscription (RFC 8291, aes128gcm) and the VAPID `Authorization` (RFC 8292)
 * — and we send it ourselves through the outbound-address rule (server/net/outbound.ts):
 * web-push's own sender always speaks https and does not check where a name resolves to.
 * See docs/decisions/072-web-push-through-the-guarded-agent.md.
 *
 * Outcomes: 2xx delivered; 404/410 the subscription is dead (deleted, not retried); 429, 5xx,
 * timeouts and network errors retried; any other answer, a subscription already gone, or a
 * target the rule refuses: failed at once.
 */
export default fp(
  (fastify, _opts, done) => {
    const { vapid, outboundAllowPrivate } = fastify.config;
    const repo = fastify.pushSubscriptionsRepository;
    const agents = createOutboundAgents(outboundAllowPrivate);
    const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };

    /**
     * The payload the device gets: the stored push's heading and text written in the language of
     * the subscription's account now (a push stored before languages goes as it is), without
     * what it is about.
     */
    const payloadFor = async (stored: string, userId: string): Promise<string> => {
      const { about, ...payload } = JSON.parse(stored) as StoredPush;
      if (about === undefined) return stored;
      const language = storedLanguage((await fastify.usersRepository.findById(userId))?.language);
      return JSON.stringify({ ...payload, title: pushTitle(about.type, language), body: notificationText(about, language) } satisfies PushPayload);
    };

    const deliver = async (row: OutboxRow): Promise<DeliveryResult> => {
      const subscription = row.pushSubscriptionId == null ? undefined : await repo.findById(row.pushSubscriptionId);
      if (subscription === undefined) return failed('subscription gone', true);
      const origin = endpointOrigin(subscription.endpoint);
      // A database failure here throws: the lease runs out and the push is tried again.
      const payload = await payloadFor(row.textBody, subscription.userId);
      let request: webpush.RequestDetails;
      try {
        request = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          payload,
          { vapidDetails, TTL: PUSH_POLICY.ttlSeconds, urgency: 'normal', contentEncoding: 'aes128gcm' },
        );
      } catch (error) {
        return failed(`push request not built: ${error instanceof Error ? error.message : String(error)}`);
      }
      let status: number;
      try {
        const response = await outboundRequest(agents, subscription.endpoint, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          timeoutMs: PUSH_POLICY.timeoutMs,
        });
        status = response.status;
      } catch (error) {
        if (error instanceof OutboundRefusedError) {
          fastify.log.warn({ outboxId: row.id, origin, reason: error.message }, 'Push refused by the outbound-address rule (OUTBOUND_ALLOW_PRIVATE is off)');
          return failed(`refused: ${error.message}`);
        }
        const reason = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
        return retry(`${origin}: ${reason}`);
      }
      if (status >= 200 && status < 300) return { ok: true };
      if (status === 404 || status === 410) {
        await repo.deleteById(subscription.id);
        fastify.log.info({ outboxId: row.id, origin, status }, 'Push subscription expired; deleted');
        return failed(`subscription gone (${status} from ${origin})`, true);
      }
      if (status === 429 || status >= 500) return retry(`${status} from ${origin}`);
      return failed(`${status} from ${origin}`);
    };

    fastify.decorate('pushSender', { deliver } satisfies PushSender);
    fastify.addHook('onClose', (_instance, next) => {
      agents.destroy();
      next();
    });
    done();
  },
  { name: 'push-sender', dependencies: ['config', 'repositories'] },
);
