import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { OutboxRepository, OutboxRow } from '../repositories/outbox-repository.ts';
import type { WebhooksRepository, WebhookTarget } from '../repositories/webhooks-repository.ts';
import type { WebhookResult } from '../webhooks/webhook-sender.ts';
import type { Lane, LaneContext } from './lane-runner.ts';
import { OUTBOX_POLICY } from './policy.ts';

/** A delivery that ended, as handed to the recorder. */
export interface WebhookOutcome {
  row: OutboxRow;
  result: WebhookResult;
}

/**
 * The webhook lane (kind `webhook`, decision 086): deliveries are claimed apart from mails and
 * pushes and each starts as soon as it is claimed, up to `webhookConcurrency` at once, so a
 * receiver that takes its full timeout never holds up mail. A claim is made when a wake or poll
 * comes, or when a delivery ends while the last claim came back full and fewer than
 * `webhookConcurrency` claimed deliveries wait in the local queue; a claim takes up to
 * `webhookClaimBatch` rows (decision 102). Outcomes are handed to `record` together,
 * `webhookRecordMs` after the first, so a burst of deliveries is recorded in one transaction
 * (webhooks/webhook-outcomes.ts); `record` answers true when it wrote mail (the lanes are woken).
 * On shutdown the deliveries in progress finish and are recorded; claimed ones not started are
 * released, due at once, their attempt not counted.
 */
export function createWebhookLane(
  deps: {
    repo: OutboxRepository;
    webhooks: Pick<WebhooksRepository, 'targets'>;
    clock: Clock;
    log: FastifyBaseLogger;
    workerId: string;
    deliver: (row: OutboxRow, hook: WebhookTarget | undefined) => Promise<WebhookResult>;
    record: (batch: readonly WebhookOutcome[]) => Promise<boolean>;
  },
  context: LaneContext,
): Lane {
  const { repo, clock, log, workerId } = deps;
  const state = {
    inFlight: new Set<Promise<void>>(),
    pumping: null as Promise<number> | null,
    again: false,
    /** The last claim filled every free place: more may be due. */
    more: false,
    /** Deliveries ended so far (a failure may have written a mail: drain looks again). */
    ended: 0,
    outcomes: [] as WebhookOutcome[],
    /** Claimed deliveries waiting for a free place (in claim order). */
    queued: [] as { row: OutboxRow; hook: WebhookTarget | undefined }[],
    flushing: null as Promise<void> | null,
    flushTimer: undefined as NodeJS.Timeout | undefined,
  };

  const flushOutcomes = async (): Promise<void> => {
    clearTimeout(state.flushTimer);
    state.flushTimer = undefined;
    // A loop, not one wait: two callers waiting on one flush both wake; the first starts the
    // next flush with what is left, and the second must wait for that one too — else a stop
    // could return while the last outcomes are still being written.
    while (state.flushing !== null) await state.flushing;
    const batch = state.outcomes.splice(0);
    if (batch.length === 0) return;
    state.flushing = deps
      .record(batch)
      .then((wroteMail) => {
        if (wroteMail) context.wake();
      })
      .catch((error: unknown) => {
        // The leases run out and the deliveries are sent again, with the same webhook-id.
        log.warn({ err: error, outboxIds: batch.map((o) => o.row.id) }, 'Recording webhook deliveries failed');
      })
      .finally(() => {
        state.flushing = null;
      });
    await state.flushing;
  };
  const scheduleFlush = () => {
    state.flushTimer ??= setTimeout(() => void flushOutcomes(), OUTBOX_POLICY.webhookRecordMs);
  };

  const deliverHook = async (row: OutboxRow, hook: WebhookTarget | undefined) => {
    const result = await deps.deliver(row, hook);
    state.outcomes.push({ row, result });
    scheduleFlush();
  };

  const startHook = (row: OutboxRow, hook: WebhookTarget | undefined) => {
    const task: Promise<void> = deliverHook(row, hook)
      .catch((error: unknown) => {
        // The database failed while recording: the lease runs out and the row is retried.
        log.warn({ err: error, outboxId: row.id }, 'Recording a webhook delivery failed');
      })
      .finally(() => {
        state.ended += 1;
        state.inFlight.delete(task);
        startQueued();
        if (state.more && state.queued.length < OUTBOX_POLICY.webhookConcurrency) void pump();
      });
    state.inFlight.add(task);
  };
  /** Starts claimed deliveries from the local queue into the free places. */
  const startQueued = () => {
    while (!context.stopping() && state.inFlight.size < OUTBOX_POLICY.webhookConcurrency) {
      const next = state.queued.shift();
      if (next === undefined) return;
      startHook(next.row, next.hook);
    }
  };

  // A function, not an inline condition: pump() may set `again` while a claim awaits.
  const pumpAgain = () => state.again && !context.stopping();
  /** Claims due deliveries into the free places and starts them; the number claimed. */
  const pump = (): Promise<number> => {
    if (state.pumping !== null) {
      state.again = true;
      return state.pumping.then(() => 1);
    }
    const run = async () => {
      let claimed = 0;
      try {
        do {
          state.again = false;
          while (!context.stopping()) {
            if (state.queued.length >= OUTBOX_POLICY.webhookConcurrency) {
              state.more = true;
              break;
            }
            const wanted = OUTBOX_POLICY.webhookClaimBatch - state.queued.length;
            const now = clock.now();
            const rows = await repo.claim(workerId, now.toISOString(), new Date(now.getTime() + OUTBOX_POLICY.leaseMs).toISOString(), wanted, undefined, 'webhooks');
            claimed += rows.length;
            // The claimed rows' webhooks, read once per claim rather than once per delivery.
            const targets = await deps.webhooks.targets([...new Set(rows.flatMap((row) => (row.webhookId == null ? [] : [row.webhookId])))]);
            for (const row of rows) state.queued.push({ row, hook: row.webhookId == null ? undefined : targets.get(row.webhookId) });
            startQueued();
            state.more = rows.length === wanted;
            if (!state.more) break;
          }
        } while (pumpAgain());
      } catch (error) {
        log.warn({ err: error }, 'Claiming webhook deliveries failed; the next poll tries again');
      }
      return claimed;
    };
    state.pumping = run().finally(() => {
      state.pumping = null;
    });
    return state.pumping;
  };
  /** Until every webhook delivery this instance started has ended and been recorded. */
  const settle = async () => {
    while (state.inFlight.size > 0 || state.pumping !== null || (state.queued.length > 0 && !context.stopping())) {
      if (state.pumping !== null) await state.pumping;
      startQueued();
      await Promise.all(state.inFlight);
    }
    // Stopping: what was claimed but not started goes back, due at once, its attempt not counted.
    const unstarted = state.queued.splice(0).map((queued) => queued.row.id);
    if (unstarted.length > 0) {
      await repo.release(unstarted, workerId).catch((error: unknown) => {
        log.warn({ err: error, outboxIds: unstarted }, 'Releasing webhook deliveries failed; their leases run out');
      });
    }
    await flushOutcomes();
  };

  return {
    start() {
      void pump();
    },
    async drainPass() {
      const claimed = await pump();
      await settle();
      return claimed > 0;
    },
    ended: () => state.ended,
    idle: () => state.pumping === null && state.inFlight.size === 0,
    stop: settle,
  };
}
