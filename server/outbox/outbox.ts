import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import fp from 'fastify-plugin';
import { HOUR } from '../clock.ts';
import type { Executor } from '../db/prepared.ts';
import { createMailSender } from '../mail/mail-sender.ts';
import { PUSH_KIND } from '../push/push-sender.ts';
import { WEBHOOK_KIND } from '../repositories/webhooks-repository.ts';
import { createWebhookOutcomes } from '../webhooks/webhook-outcomes.ts';
import { createLaneRunner } from './lane-runner.ts';
import { outboxRowOf, type OutboxMail } from './outbox-mail.ts';
import { createMessageLane, type Sender } from './message-lane.ts';
import { OUTBOX_POLICY } from './policy.ts';
import { createWebhookLane } from './webhook-lane.ts';

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
  /**
   * Shutdown (the app's close calls it): starts nothing new, lets the sends in progress end and
   * records them, gives back what was claimed and not started. A second call finds nothing to do.
   */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: Outbox;
  }
}

/**
 * The transactional outbox: changes write their mails, web pushes (kind `push`) and webhook
 * deliveries (kind `webhook`) as rows in their own transaction; this worker (one per instance)
 * delivers them after commit. The lane runner (lane-runner.ts) starts a round of each lane
 * `gatherMs` after a local commit (`wake`) and every `pollMs`; each lane claims its own rows and
 * hands them to its sender:
 * - message-lane.ts: mails (mail/mail-sender.ts) and pushes (push/push-sender.ts), a batch at a time;
 * - webhook-lane.ts: webhook deliveries (webhooks/webhook-sender.ts), each as soon as there is a
 *   place, their outcomes recorded by webhooks/webhook-outcomes.ts (failure clock, pause, mail).
 * This file wires them, writes the rows (`enqueue`, outbox-mail.ts), sweeps finished rows hourly and reports the
 * pending counts as metrics.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.outboxRepository;
    const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    let sweep: NodeJS.Timeout | undefined;

    const enqueueMany = async (trx: Executor, mails: readonly OutboxMail[]) => {
      const now = clock.now().toISOString();
      await repo.insertMany(
        mails.map((mail) => outboxRowOf(mail, now)),
        trx,
      );
    };

    const mailSender = createMailSender(fastify.mailer, (email) => fastify.usersRepository.readerOf(email));
    const pushSender: Sender = { what: 'Push', deliver: (row) => fastify.pushSender.deliver(row) };
    const outcomes = createWebhookOutcomes({
      db: fastify.db,
      outbox: repo,
      webhooks: fastify.webhooksRepository,
      boards: fastify.boardsRepository,
      clock,
      log: fastify.log,
      workerId,
      appOrigin: fastify.config.appOrigin,
      enqueueMany,
    });
    const runner = createLaneRunner({ gatherMs: OUTBOX_POLICY.gatherMs, pollMs: OUTBOX_POLICY.pollMs }, (context) => [
      createMessageLane({ repo, clock, log: fastify.log, workerId, senderOf: (row) => (row.kind === PUSH_KIND ? pushSender : mailSender) }, context),
      createWebhookLane(
        {
          repo,
          webhooks: fastify.webhooksRepository,
          clock,
          log: fastify.log,
          workerId,
          deliver: (row, hook) => fastify.webhookSender.deliver(row, hook),
          record: (batch) => outcomes.record(batch),
        },
        context,
      ),
    ]);

    const outbox: Outbox = {
      async enqueue(trx, mail) {
        await repo.insert(outboxRowOf(mail, clock.now().toISOString()), trx);
      },
      enqueueMany,
      wake: runner.wake,
      drain: () => runner.drain(),
      pending: () => repo.countPending(),
      stop: () => runner.stop(),
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
      runner.start();
      sweep = setInterval(() => {
        const before = new Date(clock.now().getTime() - OUTBOX_POLICY.keepFinishedMs).toISOString();
        repo.deleteFinishedBefore(before).catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'Outbox sweep failed; it runs again in an hour');
        });
      }, HOUR);
      sweep.unref();
      next();
    });
    fastify.addHook('preClose', async () => {
      clearInterval(sweep);
      await runner.stop();
    });
    done();
  },
  { name: 'outbox', dependencies: ['repositories', 'mailer', 'push-sender', 'webhook-sender', 'metrics'] },
);
