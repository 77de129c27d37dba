import { HOUR, MINUTE, SECOND } from '../clock.ts';

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

/**
 * When a failed attempt that is worth retrying runs again: the back-off from now, or null once
 * that would be more than `giveUpAfterMs` after the row was written (it is given up).
 */
export function retryAt(row: { attempts: number; createdAt: string }, now: Date): string | null {
  const at = now.getTime() + retryDelayMs(row.attempts);
  return at - Date.parse(row.createdAt) > OUTBOX_POLICY.giveUpAfterMs ? null : new Date(at).toISOString();
}
