import type { FastifyBaseLogger } from 'fastify';
import { canManageWebhooks } from '#shared/rights.ts';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { webhookPausedMail } from '../mail/templates.ts';
import type { OutboxMail } from '../outbox/outbox-mail.ts';
import { OUTBOX_POLICY, retryAt } from '../outbox/policy.ts';
import type { WebhookOutcome } from '../outbox/webhook-lane.ts';
import type { BoardsRepository } from '../repositories/boards-repository.ts';
import type { OutboxRepository } from '../repositories/outbox-repository.ts';
import type { WebhooksRepository } from '../repositories/webhooks-repository.ts';

/**
 * Records what the webhook lane's deliveries came to (outbox/webhook-lane.ts), a batch at a
 * time in ONE transaction: the delivered rows (one statement per answer status), the failed ones
 * (retry time, or failed), and the webhooks' failure clocks — a success clears it, a first
 * failure starts it, and a webhook that has failed for `webhookPauseAfterMs` is paused and its
 * board's admins are mailed once, in the same transaction (decision 087). `record` answers true
 * when it wrote such a mail.
 */
export function createWebhookOutcomes(deps: {
  db: Kysely<DB>;
  outbox: OutboxRepository;
  webhooks: WebhooksRepository;
  boards: BoardsRepository;
  clock: Clock;
  log: FastifyBaseLogger;
  workerId: string;
  appOrigin: string;
  enqueueMany: (trx: Executor, mails: readonly OutboxMail[]) => Promise<void>;
}) {
  const { outbox, webhooks, clock, log, workerId } = deps;

  /** Pauses the webhook if it has failed since `cutoff`, and mails its board's admins in the same transaction (once: one caller pauses it). */
  const pauseIfDue = async (trx: Executor, webhookId: string, cutoff: string, now: string): Promise<boolean> => {
    const hook = await webhooks.pauseIfFailingSince(webhookId, cutoff, now, trx);
    if (hook === undefined) return false;
    const boardName = await deps.boards.nameOf(hook.boardId, trx);
    const admins = (await deps.boards.activeMembers(hook.boardId, trx)).filter((m) => canManageWebhooks(m.role));
    const origin = deps.appOrigin;
    const input = { appOrigin: origin, boardName: boardName ?? '', url: hook.url, link: `${origin}/boards/${hook.boardId}/settings` };
    const content = webhookPausedMail(input);
    await deps.enqueueMany(
      trx,
      admins.map((admin) => ({ ...content, kind: 'webhook-paused', to: admin.email, texts: { template: 'webhook-paused', input } })),
    );
    log.warn({ webhookId }, 'Webhook paused after 24 hours of failed deliveries; its admins were mailed');
    return true;
  };

  return {
    async record(batch: readonly WebhookOutcome[]): Promise<boolean> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const cutoff = new Date(now.getTime() - OUTBOX_POLICY.webhookPauseAfterMs).toISOString();
      const byStatus = new Map<number | null, string[]>();
      const healthy = new Set<string>();
      // Per webhook that failed here: when it started failing as its delivery read it (null: healthy then).
      const failing = new Map<string, string | null>();
      const failures: { row: WebhookOutcome['row']; reason: string; runAt: string | null; status: number | null }[] = [];
      for (const { row, result } of batch) {
        if (result.ok) {
          byStatus.set(result.responseStatus, [...(byStatus.get(result.responseStatus) ?? []), row.id]);
          if (row.webhookId != null) healthy.add(row.webhookId);
          continue;
        }
        const runAt = result.retry ? retryAt(row, now) : null;
        failures.push({ row, reason: result.reason, runAt, status: result.responseStatus });
        const fields = { outboxId: row.id, webhookId: row.webhookId, attempts: row.attempts, status: result.responseStatus, reason: result.reason };
        if (result.expected === true) {
          // Its webhook was deleted or paused: not the receiver's failure.
          log.info(fields, 'Webhook delivery dropped');
          continue;
        }
        log.warn({ ...fields, retryAt: runAt }, runAt === null ? 'Webhook delivery failed; not retried' : 'Webhook delivery failed; will retry');
        if (row.webhookId != null && !failing.has(row.webhookId)) failing.set(row.webhookId, result.failingSince ?? null);
      }
      return deps.db.transaction().execute(async (trx) => {
        for (const [status, ids] of byStatus) await outbox.markSent(ids, workerId, nowIso, trx, status);
        for (const f of failures) await outbox.markFailed(f.row.id, workerId, f.reason, f.runAt, trx, f.status);
        // A success clears the clock; a webhook that also succeeded in this batch is not failing.
        await webhooks.clearFailing([...healthy], trx);
        let paused = false;
        for (const [webhookId, since] of failing) {
          if (healthy.has(webhookId)) continue;
          if (since === null) await webhooks.startFailing(webhookId, nowIso, trx);
          else if (since <= cutoff && (await pauseIfDue(trx, webhookId, cutoff, nowIso))) paused = true;
        }
        return paused;
      });
    },
  };
}
