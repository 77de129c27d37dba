import { describe, expect, it, vi } from 'vitest';
import { build } from '../app.ts';
import { OUTBOX_POLICY, retryDelayMs } from '../outbox/policy.ts';
import { uniqueEmail } from './factories.ts';
import { DAY, HOUR, isPostgres, MINUTE, SECOND, useTestApp } from './helpers.ts';

const t = useTestApp();

/**
 * Writes `count` mails to the outbox in one committed transaction, as a task write would.
 * `claimAs` leases them to that worker in the same transaction (so the app's own worker never
 * sees them unclaimed), as a worker that then dies would have.
 */
async function enqueue(count: number, claimAs?: { workerId: string; leaseMs: number }) {
  const addresses: string[] = [];
  await t.app.db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++) {
      const address = uniqueEmail('outbox');
      addresses.push(address);
      await t.app.outbox.enqueue(trx, { kind: 'test', to: address, subject: `Mail ${i}`, text: `Body ${i}\n`, html: `<p>Body ${i}</p>` });
    }
    if (claimAs !== undefined) {
      const now = t.clock.now();
      const until = new Date(now.getTime() + claimAs.leaseMs).toISOString();
      expect(await t.app.outboxRepository.claim(claimAs.workerId, now.toISOString(), until, 1000, trx)).toHaveLength(count);
    }
  });
  return addresses;
}

const rowsTo = (address: string) => t.app.db.selectFrom('outbox').selectAll().where('toEmail', '=', address).execute();

describe('outbox delivery', () => {
  it('writes nothing when the transaction that enqueued rolls back', async () => {
    const address = uniqueEmail('rollback');
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await t.app.outbox.enqueue(trx, { kind: 'test', to: address, subject: 'Never', text: 'x', html: 'x' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.app.outbox.drain();
    expect(await rowsTo(address)).toEqual([]);
    expect(t.mail.to(address)).toEqual([]);
  });

  it('retries with back-off while the mail server refuses, and delivers once when it recovers', async () => {
    t.mail.refuse = true;
    const [address = ''] = await enqueue(1);
    await t.app.outbox.drain();
    expect(t.mail.to(address)).toEqual([]);
    const [refused] = await rowsTo(address);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, lockedBy: null });
    // The first retry waits 30 s ± 50 %.
    const wait = Date.parse(refused!.runAt) - t.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(15 * SECOND);
    expect(wait).toBeLessThanOrEqual(45 * SECOND);
    expect(refused!.lastError).toContain('Try again later');

    // Not due yet: nothing is tried.
    await t.app.outbox.drain();
    expect((await rowsTo(address))[0]!.attempts).toBe(1);

    t.mail.refuse = false;
    t.clock.advance(wait);
    await t.app.outbox.drain();
    await t.app.outbox.drain();
    expect(t.mail.to(address)).toHaveLength(1);
    expect((await rowsTo(address))[0]).toMatchObject({ status: 'sent', attempts: 2, sentAt: t.clock.now().toISOString() });
  });

  it('gives up 24 hours after the mail was written', async () => {
    t.mail.refuse = true;
    try {
      const [address = ''] = await enqueue(1);
      for (let round = 0; round < 40; round++) {
        await t.app.outbox.drain();
        const [row] = await rowsTo(address);
        if (row!.status === 'failed') break;
        t.clock.advance(Math.max(0, Date.parse(row!.runAt) - t.clock.now().getTime()));
      }
      const [row] = await rowsTo(address);
      expect(row!.status).toBe('failed');
      expect(Date.parse(row!.createdAt) + DAY).toBeGreaterThan(t.clock.now().getTime());
      // Then it is left alone.
      t.clock.advance(2 * DAY);
      await t.app.outbox.drain();
      expect((await rowsTo(address))[0]!.attempts).toBe(row!.attempts);
    } finally {
      t.mail.refuse = false;
    }
  });

  it('takes over rows whose claimer died once their lease runs out, and sends each once', async () => {
    const addresses = await enqueue(3, { workerId: 'dead-worker', leaseMs: OUTBOX_POLICY.leaseMs });
    await t.app.outbox.drain();
    expect(addresses.flatMap((a) => t.mail.to(a))).toEqual([]);

    t.clock.advance(OUTBOX_POLICY.leaseMs);
    await t.app.outbox.drain();
    for (const address of addresses) expect(t.mail.to(address)).toHaveLength(1);
  });

  it('delivers a burst woken by commits in full rounds: every mail once, every row recorded as sent', async () => {
    const addresses = await enqueue(OUTBOX_POLICY.batchSize + 3);
    // Several commits in a row wake the worker several times; it gathers them into rounds.
    for (let i = 0; i < 5; i++) t.app.outbox.wake();
    await vi.waitFor(
      async () => {
        expect(await t.app.outbox.pending()).toBe(0);
      },
      { timeout: 5000, interval: 20 },
    );
    for (const address of addresses) expect(t.mail.to(address)).toHaveLength(1);
    for (const address of addresses) expect((await rowsTo(address))[0]).toMatchObject({ status: 'sent', attempts: 1, lockedBy: null });
  });

  it('releases what it claimed but has not started when the app closes', async () => {
    const addresses = await enqueue(2, { workerId: 'closing-worker', leaseMs: HOUR });
    const claimed = await t.app.db.selectFrom('outbox').select('id').where('toEmail', 'in', addresses).execute();
    await t.app.outboxRepository.release(
      claimed.map((r) => r.id),
      'closing-worker',
    );
    await t.app.outbox.drain();
    for (const address of addresses) expect(t.mail.to(address)).toHaveLength(1);
    for (const address of addresses) expect((await rowsTo(address))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(30 * SECOND);
    expect(retryDelayMs(2, () => 0.5)).toBe(MINUTE);
    expect(retryDelayMs(5, () => 0.5)).toBe(8 * MINUTE);
    expect(retryDelayMs(20, () => 0.5)).toBe(HOUR);
    expect(retryDelayMs(1, () => 0)).toBe(15 * SECOND);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(45 * SECOND);
  });

  it.runIf(isPostgres)('two instances drain 100 rows together, each mail exactly once', async () => {
    const second = await build({ config: t.config, clock: t.clock });
    try {
      const addresses = await enqueue(100);
      await Promise.all([t.app.outbox.drain(), second.outbox.drain(), t.app.outbox.drain(), second.outbox.drain()]);
      const delivered = addresses.map((a) => t.mail.to(a).length);
      expect(delivered).toEqual(addresses.map(() => 1));
      const rows = await t.app.db.selectFrom('outbox').select(['status', 'attempts']).where('toEmail', 'in', addresses).execute();
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
