import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import fp from 'fastify-plugin';
import { canManageWebhooks } from '#shared/rights.ts';
import { HOUR, MINUTE, SECOND } from '../clock.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';
import { PUSH_KIND, type DeliveryResult } from '../push/push-sender.ts';
import { WEBHOOK_KIND, type WebhookTarget } from '../repositories/webhooks-repository.ts';
import type { WebhookResult } from '../webhooks/webhook-sender.ts';
import { webhookPausedMail, type MailContent } from './templates.ts';


/** How the outbox worker behaves; exported so the tests and docs name the same numbers. */
export const OUTBOX_POLICY = {
  /** Rows claimed per round; they are sent concurrently over the pooled SMTP connections. */
  batchSize: 10,
  /**
   * A local commit starts a round this long after it, so a burst of writes is delivered by one
   * claim and one record of the sent rows instead of two statements (two commits) per mail.
   */
  gatherMs: 20,
  /**
   * Webhook outcomes are recorded together this long after the first of them: one transaction
   * (on SQLite one fsync) for every delivery that ended meanwhile. A delivery already reached its
   * receiver; this only delays the log's "delivered" and the next retry's bookkeeping.
   */
  webhookRecordMs: 100,
  /** A claim expires this long after it was taken if its worker never reports back (a crash). */
  leaseMs: 2 * MINUTE,
  /** Due rows written by other instances (or retries) are found by polling this often. */
  pollMs: 2 * SECOND,
  /** First retry delay; doubles per attempt up to `maxDelayMs`, each with ±50 % jitter. */
  baseDelayMs: 30 * SECOND,
  maxDelayMs: HOUR,
  /** A mail not delivered this long after it was written is given up (one error log line). */
  giveUpAfterMs: 24 * HOUR,
  /** Delivered and abandoned rows are deleted after this long (hourly sweep). */
  keepFinishedMs: 7 * 24 * HOUR,
  /**
   * Webhook deliveries in flight at once per instance. They are claimed apart from mails and
   * pushes and each starts as soon as a place frees up, so a slow receiver (up to its 10 s
   * timeout) holds one place, never a round of other deliveries or any mail.
   */
  webhookConcurrency: 64,
  /**
   * Webhook deliveries are claimed this many at a time into a local queue, and claimed again
   * when fewer than `webhookConcurrency` wait there: a claim is a write transaction (on SQLite
   * one fsync), so claiming a few rows per ended delivery would cap deliveries at the disk's
   * commit rate. Their leases (`leaseMs`) outlast the queue by far.
   */
  webhookClaimBatch: 256,
  /** A webhook whose deliveries have all failed this long is paused (its admins get one mail). */
  webhookPauseAfterMs: 24 * HOUR,
} as const;

/** The delay before retry number `attempt` (1 = the first retry), with jitter from `random`. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(OUTBOX_POLICY.maxDelayMs, OUTBOX_POLICY.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.5 + random()));
}

export interface OutboxMail extends MailContent {
  /** What kind of mail it is (for logs and metrics): `assigned`, `due-soon`, `overdue`, … */
  kind: string;
  to: string;
  headers?: Record<string, string>;
  /** At most one row with this key is ever written (e.g. one reminder per task and deadline). */
  dedupeKey?: string;
  /** The account whose change caused the mail to someone else (counted against its hourly cap). */
  causedBy?: string;
}

export interface Outbox {
  /** Writes the mail in the caller's transaction: it goes out only if that commits. */
  enqueue(trx: Executor, mail: OutboxMail): Promise<void>;
  /** The same for many mails, in a few statements. */
  enqueueMany(trx: Executor, mails: readonly OutboxMail[]): Promise<void>;
  /** Starts a delivery round `gatherMs` from now (call after the commit that enqueued); never waits, never throws. */
  wake(): void;
  /** Delivers every due row, and resolves once this instance has nothing due left. */
  drain(): Promise<void>;
  /** Rows not yet delivered or abandoned. */
  pending(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: Outbox;
  }
}

/**
 * The transactional outbox: changes write their mails (and web pushes, kind `push`) as rows in
 * their own transaction; this worker (one per instance) delivers them after commit. A round
 * claims due rows with a lease (see outbox-repository.ts), sends them concurrently — mails
 * through the mailer, pushes through the push sender (server/push/push-sender.ts) — and records the
 * outcomes: the delivered rows in one statement once the round's sends have finished; a failed
 * one as a retry after exponential back-off with jitter, or — 24 h after the row was written —
 * as failed, with one error log line. A push the push sender calls hopeless (its subscription
 * gone, a 4xx, a refused target) is failed at once. Rounds start `gatherMs` after a local commit (`wake`) and
 * every `pollMs`; a round claims again only while its claims come back full. On shutdown the
 * round in progress finishes its sends; rows it claimed but had not started are released for
 * the next instance.
 *
 * Webhook deliveries (kind `webhook`) have a lane of their own: claimed apart from mails and
 * pushes and sent through the webhook sender (server/webhooks/webhook-sender.ts) as soon as they
 * are claimed, up to `webhookConcurrency` at once, so a receiver that takes its full timeout
 * never holds up mail (decision 086). Their failures also run the webhook's failure clock, which
 * pauses it after 24 hours and mails its board's admins once (decision 087).
 *
 * A mail can go out twice only if the process dies (or the database becomes unreachable)
 * after the mail server accepted it and before the round records it as sent: then the lease
 * expires and another round sends it again. That window is one round's sends long (at most
 * `batchSize` concurrent sends).
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.outboxRepository;
    const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    let round: Promise<void> | null = null;
    // Changed by wake() and shutdown while a round awaits, hence an object and not two lets.
    const state = { again: false, stopping: false };
    const timers: NodeJS.Timeout[] = [];

    /** One attempt at a mail: the mailer's failures are all worth a retry. */
    const sendMail = async (row: OutboxRow): Promise<DeliveryResult> => {
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const result = await fastify.mailer.send({
        to: row.toEmail,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        headers,
      });
      if (result.ok) return { ok: true };
      return { ok: false, retry: true, reason: result.error instanceof Error ? result.error.message : String(result.error) };
    };

    /** Sends one row; true when it was delivered (the caller records it as sent). */
    const deliver = async (row: OutboxRow): Promise<boolean> => {
      const isPush = row.kind === PUSH_KIND;
      const result = isPush ? await fastify.pushSender.deliver(row) : await sendMail(row);
      if (result.ok) return true;
      const { reason } = result;
      const what = isPush ? 'Push' : 'Mail';
      if (!result.retry) {
        // Pushes only: a dead or deleted subscription, a refused target, a 4xx. Nothing to retry.
        await repo.markFailed(row.id, workerId, reason, null);
        const fields = { outboxId: row.id, kind: row.kind, attempts: row.attempts, reason };
        if (result.expected === true) fastify.log.info(fields, `${what} not delivered; not retried`);
        else fastify.log.warn(fields, `${what} not delivered; not retried`);
        return false;
      }
      const now = clock.now();
      const retryAt = now.getTime() + retryDelayMs(row.attempts);
      if (retryAt - Date.parse(row.createdAt) > OUTBOX_POLICY.giveUpAfterMs) {
        await repo.markFailed(row.id, workerId, reason, null);
        fastify.log.error(
          { outboxId: row.id, kind: row.kind, to: row.toEmail, attempts: row.attempts, reason },
          `${what} given up after 24 hours of failed attempts`,
        );
        return false;
      }
      await repo.markFailed(row.id, workerId, reason, new Date(retryAt).toISOString());
      fastify.log.warn(
        { outboxId: row.id, kind: row.kind, attempts: row.attempts, retryAt: new Date(retryAt).toISOString(), reason },
        `${what} not delivered; will retry`,
      );
      return false;
    };

    /** One claim and its sends; the number of rows claimed. */
    const processBatch = async (): Promise<number> => {
      const now = clock.now();
      const rows = await repo.claim(
        workerId,
        now.toISOString(),
        new Date(now.getTime() + OUTBOX_POLICY.leaseMs).toISOString(),
        OUTBOX_POLICY.batchSize,
        fastify.db,
        'messages',
      );
      const released: string[] = [];
      const sent: string[] = [];
      await Promise.all(
        rows.map(async (row) => {
          if (state.stopping) {
            released.push(row.id);
            return;
          }
          try {
            if (await deliver(row)) sent.push(row.id);
          } catch (error) {
            // The database failed while recording: the lease runs out and the row is retried.
            fastify.log.warn({ err: error, outboxId: row.id }, 'Recording a mail delivery failed');
          }
        }),
      );
      try {
        await repo.markSent(sent, workerId, clock.now().toISOString());
      } catch (error) {
        // As above: the leases run out and the rows are sent again (at least once, never lost).
        fastify.log.warn({ err: error, outboxIds: sent }, 'Recording mail deliveries failed');
      }
      await repo.release(released, workerId);
      return rows.length;
    };

    /**
     * The webhook lane: deliveries are claimed with `kind = 'webhook'` only, and each starts as
     * soon as it is claimed, up to `webhookConcurrency` at once; a claim is made when a wake or
     * poll comes, or when a delivery ends while the last claim came back full and fewer than
     * `webhookConcurrency` claimed deliveries wait in the local queue; a claim takes up to
     * `webhookClaimBatch` rows (decision 102). Outcomes are
     * recorded together, `webhookRecordMs` after the first, in ONE transaction: the delivered rows (one
     * statement per answer status), the failed ones (retry time or failed), and the webhooks'
     * failure clocks — so on SQLite a burst of deliveries costs one commit, not one per delivery.
     */
    const hooks = {
      inFlight: new Set<Promise<void>>(),
      pumping: null as Promise<number> | null,
      again: false,
      /** The last claim filled every free place: more may be due. */
      more: false,
      /** Deliveries ended so far (a failure may have written a mail: drain looks again). */
      ended: 0,
      outcomes: [] as { row: OutboxRow; result: WebhookResult }[],
      /** Claimed deliveries waiting for a free place (in claim order). */
      queued: [] as { row: OutboxRow; hook: WebhookTarget | undefined }[],
      flushing: null as Promise<void> | null,
      flushTimer: undefined as NodeJS.Timeout | undefined,
    };
    const webhooksRepo = fastify.webhooksRepository;

    /** Pauses the webhook if it has failed since `cutoff`, and mails its board's admins in the same transaction (once: one caller pauses it). */
    const pauseIfDue = async (trx: Executor, webhookId: string, cutoff: string, now: string): Promise<boolean> => {
      const hook = await webhooksRepo.pauseIfFailingSince(webhookId, cutoff, now, trx);
      if (hook === undefined) return false;
      const board = await trx.selectFrom('boards').select('name').where('id', '=', hook.boardId).executeTakeFirst();
      const admins = (await fastify.boardsRepository.activeMembers(hook.boardId, trx)).filter((m) => canManageWebhooks(m.role));
      const origin = fastify.config.appOrigin;
      const content = webhookPausedMail({ appOrigin: origin, boardName: board?.name ?? '', url: hook.url, link: `${origin}/boards/${hook.boardId}/settings` });
      await outbox.enqueueMany(
        trx,
        admins.map((admin) => ({ ...content, kind: 'webhook-paused', to: admin.email })),
      );
      fastify.log.warn({ webhookId }, 'Webhook paused after 24 hours of failed deliveries; its admins were mailed');
      return true;
    };

    /** Records a batch of outcomes in one transaction; true when a webhook was paused (a mail was written). */
    const recordOutcomes = async (batch: readonly { row: OutboxRow; result: WebhookResult }[]): Promise<boolean> => {
      const now = clock.now();
      const nowIso = now.toISOString();
      const cutoff = new Date(now.getTime() - OUTBOX_POLICY.webhookPauseAfterMs).toISOString();
      const byStatus = new Map<number | null, string[]>();
      const healthy = new Set<string>();
      // Per webhook that failed here: when it started failing as its delivery read it (null: healthy then).
      const failing = new Map<string, string | null>();
      const failures: { row: OutboxRow; reason: string; runAt: string | null; status: number | null }[] = [];
      for (const { row, result } of batch) {
        if (result.ok) {
          byStatus.set(result.responseStatus, [...(byStatus.get(result.responseStatus) ?? []), row.id]);
          if (row.webhookId != null) healthy.add(row.webhookId);
          continue;
        }
        let runAt: string | null = null;
        if (result.retry) {
          const retryAt = now.getTime() + retryDelayMs(row.attempts);
          if (retryAt - Date.parse(row.createdAt) <= OUTBOX_POLICY.giveUpAfterMs) runAt = new Date(retryAt).toISOString();
        }
        failures.push({ row, reason: result.reason, runAt, status: result.responseStatus });
        const fields = { outboxId: row.id, webhookId: row.webhookId, attempts: row.attempts, status: result.responseStatus, reason: result.reason };
        if (result.expected === true) {
          // Its webhook was deleted or paused: not the receiver's failure.
          fastify.log.info(fields, 'Webhook delivery dropped');
          continue;
        }
        fastify.log.warn({ ...fields, retryAt: runAt }, runAt === null ? 'Webhook delivery failed; not retried' : 'Webhook delivery failed; will retry');
        if (row.webhookId != null && !failing.has(row.webhookId)) failing.set(row.webhookId, result.failingSince ?? null);
      }
      return fastify.db.transaction().execute(async (trx) => {
        for (const [status, ids] of byStatus) await repo.markSent(ids, workerId, nowIso, trx, status);
        for (const f of failures) await repo.markFailed(f.row.id, workerId, f.reason, f.runAt, trx, f.status);
        // A success clears the clock; a webhook that also succeeded in this batch is not failing.
        await webhooksRepo.clearFailing([...healthy], trx);
        let paused = false;
        for (const [webhookId, since] of failing) {
          if (healthy.has(webhookId)) continue;
          if (since === null) await webhooksRepo.startFailing(webhookId, nowIso, trx);
          else if (since <= cutoff && (await pauseIfDue(trx, webhookId, cutoff, nowIso))) paused = true;
        }
        return paused;
      });
    };

    const flushOutcomes = async (): Promise<void> => {
      clearTimeout(hooks.flushTimer);
      hooks.flushTimer = undefined;
      if (hooks.flushing !== null) await hooks.flushing;
      const batch = hooks.outcomes.splice(0);
      if (batch.length === 0) return;
      hooks.flushing = recordOutcomes(batch)
        .then((paused) => {
          if (paused) wake();
        })
        .catch((error: unknown) => {
          // The leases run out and the deliveries are sent again, with the same webhook-id.
          fastify.log.warn({ err: error, outboxIds: batch.map((o) => o.row.id) }, 'Recording webhook deliveries failed');
        })
        .finally(() => {
          hooks.flushing = null;
        });
      await hooks.flushing;
    };
    const scheduleFlush = () => {
      hooks.flushTimer ??= setTimeout(() => void flushOutcomes(), OUTBOX_POLICY.webhookRecordMs);
    };

    const deliverHook = async (row: OutboxRow, hook: WebhookTarget | undefined) => {
      const result = await fastify.webhookSender.deliver(row, hook);
      hooks.outcomes.push({ row, result });
      scheduleFlush();
    };

    const startHook = (row: OutboxRow, hook: WebhookTarget | undefined) => {
      const task: Promise<void> = deliverHook(row, hook)
        .catch((error: unknown) => {
          // The database failed while recording: the lease runs out and the row is retried.
          fastify.log.warn({ err: error, outboxId: row.id }, 'Recording a webhook delivery failed');
        })
        .finally(() => {
          hooks.ended += 1;
          hooks.inFlight.delete(task);
          startQueued();
          if (hooks.more && hooks.queued.length < OUTBOX_POLICY.webhookConcurrency) void pumpHooks();
        });
      hooks.inFlight.add(task);
    };
    /** Starts claimed deliveries from the local queue into the free places. */
    const startQueued = () => {
      while (!state.stopping && hooks.inFlight.size < OUTBOX_POLICY.webhookConcurrency) {
        const next = hooks.queued.shift();
        if (next === undefined) return;
        startHook(next.row, next.hook);
      }
    };

    // A function, not an inline condition: pumpHooks() may set `again` while a claim awaits.
    const pumpAgain = () => hooks.again && !state.stopping;
    /** Claims due deliveries into the free places and starts them; the number claimed. */
    const pumpHooks = (): Promise<number> => {
      if (hooks.pumping !== null) {
        hooks.again = true;
        return hooks.pumping.then(() => 1);
      }
      const pump = async () => {
        let claimed = 0;
        try {
          do {
            hooks.again = false;
            while (!state.stopping) {
              if (hooks.queued.length >= OUTBOX_POLICY.webhookConcurrency) {
                hooks.more = true;
                break;
              }
              const wanted = OUTBOX_POLICY.webhookClaimBatch - hooks.queued.length;
              const now = clock.now();
              const rows = await repo.claim(workerId, now.toISOString(), new Date(now.getTime() + OUTBOX_POLICY.leaseMs).toISOString(), wanted, fastify.db, 'webhooks');
              claimed += rows.length;
              // The claimed rows' webhooks, read once per claim rather than once per delivery.
              const targets = await webhooksRepo.targets([...new Set(rows.flatMap((row) => (row.webhookId == null ? [] : [row.webhookId])))]);
              for (const row of rows) hooks.queued.push({ row, hook: row.webhookId == null ? undefined : targets.get(row.webhookId) });
              startQueued();
              hooks.more = rows.length === wanted;
              if (!hooks.more) break;
            }
          } while (pumpAgain());
        } catch (error) {
          fastify.log.warn({ err: error }, 'Claiming webhook deliveries failed; the next poll tries again');
        }
        return claimed;
      };
      hooks.pumping = pump().finally(() => {
        hooks.pumping = null;
      });
      return hooks.pumping;
    };
    /** Until every webhook delivery this instance started has ended and been recorded. */
    const settleHooks = async () => {
      while (hooks.inFlight.size > 0 || hooks.pumping !== null || (hooks.queued.length > 0 && !state.stopping)) {
        if (hooks.pumping !== null) await hooks.pumping;
        startQueued();
        await Promise.all(hooks.inFlight);
      }
      // Stopping: what was claimed but not started goes back, due at once, its attempt not counted.
      const unstarted = hooks.queued.splice(0).map((queued) => queued.row.id);
      if (unstarted.length > 0) {
        await repo.release(unstarted, workerId).catch((error: unknown) => {
          fastify.log.warn({ err: error, outboxIds: unstarted }, 'Releasing webhook deliveries failed; their leases run out');
        });
      }
      await flushOutcomes();
    };

    // A function, not an inline condition: wake() may set `again` while the round awaits.
    const wantsAnother = () => state.again && !state.stopping;
    const runRound = async () => {
      try {
        do {
          state.again = false;
          // A claim that came back short took every due row; the next wake or poll finds more.
          while (!state.stopping && (await processBatch()) === OUTBOX_POLICY.batchSize);
        } while (wantsAnother());
      } catch (error) {
        fastify.log.warn({ err: error }, 'Outbox round failed; the next poll tries again');
      }
    };

    let gathering: NodeJS.Timeout | undefined;
    const startRound = () => {
      gathering = undefined;
      if (state.stopping) return;
      void pumpHooks();
      if (round !== null) {
        state.again = true;
        return;
      }
      round = runRound().finally(() => {
        round = null;
      });
    };
    const wake = () => {
      if (state.stopping || gathering !== undefined) return;
      gathering = setTimeout(startRound, OUTBOX_POLICY.gatherMs);
    };

    const toRow = (mail: OutboxMail, now: string): OutboxRow => ({
      id: newId(),
      kind: mail.kind,
      toEmail: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      headers: JSON.stringify(mail.headers ?? {}),
      dedupeKey: mail.dedupeKey ?? null,
      status: 'pending',
      attempts: 0,
      runAt: now,
      lockedBy: null,
      lockedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      causedBy: mail.causedBy ?? null,
    });

    const outbox: Outbox = {
      async enqueue(trx, mail) {
        await repo.insert(toRow(mail, clock.now().toISOString()), trx);
      },
      async enqueueMany(trx, mails) {
        const now = clock.now().toISOString();
        await repo.insertMany(
          mails.map((mail) => toRow(mail, now)),
          trx,
        );
      },
      wake,
      async drain() {
        for (;;) {
          if (round !== null) await round;
          const ended = hooks.ended;
          const messages = await processBatch();
          const deliveries = await pumpHooks();
          await settleHooks();
          if (messages === 0 && deliveries === 0 && hooks.ended === ended && round === null) return;
        }
      },
      pending: () => repo.countPending(),
    };
    fastify.decorate('outbox', outbox);
    fastify.metrics.gauge({
      name: 'taskwise_outbox_pending_mails',
      help: 'Mails in the outbox that are neither delivered nor given up.',
      collect: async (gauge) => {
        gauge.set(await repo.countPending('mail'));
      },
    });
    fastify.metrics.gauge({
      name: 'taskwise_outbox_pending_webhooks',
      help: 'Webhook deliveries in the outbox that are neither delivered nor given up.',
      collect: async (gauge) => {
        gauge.set(await repo.countPending(WEBHOOK_KIND));
      },
    });
    fastify.metrics.gauge({
      name: 'taskwise_outbox_pending_pushes',
      help: 'Web pushes in the outbox that are neither delivered nor given up.',
      collect: async (gauge) => {
        gauge.set(await repo.countPending('push'));
      },
    });

    fastify.addHook('onReady', (next) => {
      wake();
      const poll = setInterval(wake, OUTBOX_POLICY.pollMs);
      const sweep = setInterval(() => {
        const before = new Date(clock.now().getTime() - OUTBOX_POLICY.keepFinishedMs).toISOString();
        repo.deleteFinishedBefore(before).catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Outbox sweep failed; it runs again in an hour');
        });
      }, HOUR);
      poll.unref();
      sweep.unref();
      timers.push(poll, sweep);
      next();
    });
    fastify.addHook('preClose', async () => {
      state.stopping = true;
      for (const timer of timers) clearInterval(timer);
      clearTimeout(gathering);
      if (round !== null) await round;
      await settleHooks();
    });
    done();
  },
  { name: 'outbox', dependencies: ['repositories', 'mailer', 'push-sender', 'webhook-sender', 'metrics'] },
);
