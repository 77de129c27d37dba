import fp from 'fastify-plugin';
import { Webhook as Signer } from 'standardwebhooks';
import { SECOND } from '../clock.ts';
import { createOutboundAgents, outboundRequest, OutboundRefusedError } from '../net/outbound.ts';
import type { DeliveryResult } from '../push/push-sender.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';
import { webhookMessageId, type WebhookTarget } from '../repositories/webhooks-repository.ts';

export const WEBHOOK_POLICY = {
  /** One attempt (DNS, connect, request, answer) must finish within this; else it is retried. */
  timeoutMs: 10 * SECOND,
} as const;

/**
 * One attempt's outcome, with the receiver's HTTP status (null: no answer) and, on a failure,
 * the webhook's `failing_since` as the attempt read it (the worker runs the failure clock with it).
 */
export type WebhookResult = DeliveryResult & { responseStatus: number | null; failingSince?: string | null };

export interface WebhookSender {
  /**
   * Delivers one outbox row of kind `webhook` to `hook`, its webhook as read when the row was
   * claimed (undefined: deleted). Never throws for the receiver's or the network's failures.
   */
  deliver(row: OutboxRow, hook: WebhookTarget | undefined): Promise<WebhookResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhookSender: WebhookSender;
  }
}

/** What a receiver's status means: 2xx delivered; 408, 429 and 5xx worth a retry; any other answer final. */
export function outcomeOf(status: number): 'delivered' | 'retry' | 'failed' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** The `webhook-id` of a row: the one written with it (a redelivery carries the original's). */
export function messageIdOf(row: Pick<OutboxRow, 'id' | 'headers'>): string {
  try {
    const id = (JSON.parse(row.headers) as Record<string, unknown>)['webhook-id'];
    if (typeof id === 'string' && id !== '') return id;
  } catch {
    // Fall through: the row id is as stable.
  }
  return webhookMessageId(row.id);
}

/**
 * Sends webhook deliveries for the outbox worker, as the Standard Webhooks specification says:
 * a JSON POST with `webhook-id` (fixed when the row was written, the same on every retry, so a
 * receiver can drop a repeat), `webhook-timestamp` (the attempt's, in seconds) and
 * `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the
 * webhook's secret, made by the `standardwebhooks` library). Through the outbound-address rule
 * (server/net/outbound.ts), checked again at every attempt; no redirects; 10 s per attempt.
 *
 * Outcomes: 2xx delivered; 408, 429, 5xx, a timeout or no connection retried (the outbox's
 * back-off, for 24 h); any other answer, a target the rule refuses, or a webhook deleted since:
 * failed at once. A paused webhook's pending deliveries fail at once too (not sent).
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const agents = createOutboundAgents(fastify.config.outboundAllowPrivate);

    const deliver = async (row: OutboxRow, hook: WebhookTarget | undefined): Promise<WebhookResult> => {
      if (hook === undefined) return { ok: false, retry: false, reason: 'webhook deleted', expected: true, responseStatus: null };
      const { failingSince } = hook;
      const failed = (reason: string, responseStatus: number | null = null, expected = false): WebhookResult => ({ ok: false, retry: false, reason, expected, responseStatus, failingSince });
      if (!hook.active) return failed('webhook paused', null, true);
      let origin = '(not a URL)';
      try {
        origin = new URL(hook.url).origin;
      } catch {
        // Logged as not a URL; the request below refuses it.
      }
      const id = messageIdOf(row);
      const at = clock.now();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Taskwise-Webhooks',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / SECOND)),
        'webhook-signature': new Signer(hook.secret).sign(id, at, row.textBody),
      };
      let status: number;
      try {
        const response = await outboundRequest(agents, hook.url, { method: 'POST', headers, body: row.textBody, timeoutMs: WEBHOOK_POLICY.timeoutMs });
        status = response.status;
      } catch (error) {
        if (error instanceof OutboundRefusedError) {
          fastify.log.warn({ outboxId: row.id, origin, reason: error.message }, 'Webhook refused by the outbound-address rule (OUTBOUND_ALLOW_PRIVATE is off)');
          return failed(`refused: ${error.message}`);
        }
        const reason = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
        return { ok: false, retry: true, reason: `${origin}: ${reason}`, responseStatus: null, failingSince };
      }
      const outcome = outcomeOf(status);
      if (outcome === 'delivered') return { ok: true, responseStatus: status };
      if (outcome === 'retry') return { ok: false, retry: true, reason: `${status} from ${origin}`, responseStatus: status, failingSince };
      return failed(`${status} from ${origin}`, status);
    };

    fastify.decorate('webhookSender', { deliver } satisfies WebhookSender);
    fastify.addHook('onClose', (_instance, next) => {
      agents.destroy();
      next();
    });
    done();
  },
  { name: 'webhook-sender', dependencies: ['config', 'repositories'] },
);
