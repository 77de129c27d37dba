import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';
import { planOf } from './query-plans.ts';

/**
 * The outbox worker claims mails and pushes in one lane and webhook deliveries in another. A
 * backlog of deliveries (a busy board with webhooks) must not make the mail lane's claim walk
 * past it, nor the other way round: each claim reads its own lane's partial index.
 */
const t = useTestApp();

describe('the outbox claims', () => {
  it('read their own lane’s index of pending rows', async () => {
    const webhooks = await planOf(t, t.app.outboxRepository.claimQuery('webhooks'));
    expect(webhooks).toMatch(/outbox_pending_webhooks_run_at/);
    expect(webhooks).not.toMatch(/outbox_pending_messages_run_at/);
    const messages = await planOf(t, t.app.outboxRepository.claimQuery('messages'));
    expect(messages).toMatch(/outbox_pending_messages_run_at/);
    expect(messages).not.toMatch(/outbox_pending_webhooks_run_at/);
  });
});
