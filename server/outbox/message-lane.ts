import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { DeliveryResult } from '../push/push-sender.ts';
import type { OutboxRepository, OutboxRow } from '../repositories/outbox-repository.ts';
import type { Lane, LaneContext } from './lane-runner.ts';
import { OUTBOX_POLICY, retryAt } from './policy.ts';

/** The sender of one kind of row: one attempt, never throwing for the receiver's or the network's failures. */
export interface Sender {
  /** How the log names such a row (`Mail`, `Push`). */
  what: string;
  deliver(row: OutboxRow): Promise<DeliveryResult>;
}

/**
 * The lane of mails and pushes (every kind but `webhook`). A round claims up to `batchSize` due
 * rows with a lease (outbox-repository.ts), sends them concurrently through the sender of their
 * kind (`senderOf`), and records the outcomes: the delivered rows in one statement once the
 * round's sends have finished; a failed one as a retry after exponential back-off with jitter,
 * or — 24 h after the row was written — as failed, with one error log line. A row its sender
 * calls hopeless (a push whose subscription is gone, a 4xx, a refused target) is failed at
 * once. A round claims again only while its claims come back full. On shutdown the round in
 * progress finishes its sends; rows it claimed but had not started are released for the next
 * instance.
 *
 * A mail can go out twice only if the process dies (or the database becomes unreachable)
 * after the mail server accepted it and before the round records it as sent: then the lease
 * expires and another round sends it again. That window is one round's sends long (at most
 * `batchSize` concurrent sends).
 */
export function createMessageLane(
  deps: { repo: OutboxRepository; clock: Clock; log: FastifyBaseLogger; workerId: string; senderOf: (row: OutboxRow) => Sender },
  context: LaneContext,
): Lane {
  const { repo, clock, log, workerId } = deps;
  let round: Promise<void> | null = null;
  // Set by start() while a round awaits, hence read through a function below.
  let again = false;

  /** Sends one row; true when it was delivered (the caller records it as sent). */
  const deliver = async (row: OutboxRow): Promise<boolean> => {
    const sender = deps.senderOf(row);
    const result = await sender.deliver(row);
    if (result.ok) return true;
    const { reason } = result;
    const { what } = sender;
    if (!result.retry) {
      // Pushes only: a dead or deleted subscription, a refused target, a 4xx. Nothing to retry.
      await repo.markFailed(row.id, workerId, reason, null);
      const fields = { outboxId: row.id, kind: row.kind, attempts: row.attempts, reason };
      if (result.expected === true) log.info(fields, `${what} not delivered; not retried`);
      else log.warn(fields, `${what} not delivered; not retried`);
      return false;
    }
    const runAt = retryAt(row, clock.now());
    if (runAt === null) {
      await repo.markFailed(row.id, workerId, reason, null);
      log.error({ outboxId: row.id, kind: row.kind, to: row.toEmail, attempts: row.attempts, reason }, `${what} given up after 24 hours of failed attempts`);
      return false;
    }
    await repo.markFailed(row.id, workerId, reason, runAt);
    log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, retryAt: runAt, reason }, `${what} not delivered; will retry`);
    return false;
  };

  /** One claim and its sends; the number of rows claimed. */
  const processBatch = async (): Promise<number> => {
    const now = clock.now();
    const rows = await repo.claim(workerId, now.toISOString(), new Date(now.getTime() + OUTBOX_POLICY.leaseMs).toISOString(), OUTBOX_POLICY.batchSize, undefined, 'messages');
    const released: string[] = [];
    const sent: string[] = [];
    await Promise.all(
      rows.map(async (row) => {
        if (context.stopping()) {
          released.push(row.id);
          return;
        }
        try {
          if (await deliver(row)) sent.push(row.id);
        } catch (error) {
          // The database failed while recording: the lease runs out and the row is retried.
          log.warn({ err: error, outboxId: row.id }, 'Recording a mail delivery failed');
        }
      }),
    );
    try {
      await repo.markSent(sent, workerId, clock.now().toISOString());
    } catch (error) {
      // As above: the leases run out and the rows are sent again (at least once, never lost).
      log.warn({ err: error, outboxIds: sent }, 'Recording mail deliveries failed');
    }
    await repo.release(released, workerId);
    return rows.length;
  };

  // A function, not an inline condition: start() may set `again` while the round awaits.
  const wantsAnother = () => again && !context.stopping();
  const runRound = async () => {
    try {
      do {
        again = false;
        // A claim that came back short took every due row; the next wake or poll finds more.
        while (!context.stopping() && (await processBatch()) === OUTBOX_POLICY.batchSize);
      } while (wantsAnother());
    } catch (error) {
      log.warn({ err: error }, 'Outbox round failed; the next poll tries again');
    }
  };

  return {
    start() {
      if (round !== null) {
        again = true;
        return;
      }
      round = runRound().finally(() => {
        round = null;
      });
    },
    async drainPass() {
      if (round !== null) await round;
      return (await processBatch()) > 0;
    },
    // A mail or push writes nothing when it ends.
    ended: () => 0,
    idle: () => round === null,
    async stop() {
      if (round !== null) await round;
    },
  };
}
