import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '#shared/schemas/webhooks.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';
import { labelsTeam } from './labels-support.ts';
import { addWebhook, deliveriesOf, deliveryRows, webhookOf, webhooksApi, webhooksOf } from './webhooks-support.ts';

/**
 * The webhooks API: a board's admins add, list, change, pause, delete webhooks and read their
 * delivery logs; members and viewers get 403, anyone else 404; at most 10 per board; URLs are
 * http(s) and, as IP addresses, public (OUTBOUND_ALLOW_PRIVATE is off here).
 */
const t = useTestApp();
const api = webhooksApi(t);
// `.invalid` never resolves (RFC 2606): the app's own worker may try a delivery, which stays pending.
const RECEIVER = 'https://hooks.example.invalid/taskwise';

describe('GET/POST /api/boards/:id/webhooks', () => {
  it('adds a webhook for an admin, answers its secret once, and lists it without the secret', async () => {
    const { admin, board } = await labelsTeam(t);
    const res = await api.create(admin.cookie, board.id, { url: `  ${RECEIVER}  `, events: ['task.created', 'comment.created'] });
    expect(res.status, res.body).toBe(201);
    const { webhook, secret } = (res.json as unknown as { data: { webhook: unknown; secret: string } }).data;
    expect(webhook).toEqual({
      _id: expect.any(String) as string,
      url: RECEIVER,
      events: ['task.created', 'comment.created'],
      active: true,
      failingSince: null,
      createdAt: t.clock.now().toISOString(),
    });
    // The Standard Webhooks format: whsec_ and the base64 of 24 to 32 random bytes.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(32);
    t.clock.advance(1000);
    const second = await addWebhook(t, admin.cookie, board.id, RECEIVER, ['task.updated']);
    expect(second.secret).not.toBe(secret);

    const list = await api.list(admin.cookie, board.id);
    expect(list.status).toBe(200);
    expect(webhooksOf(list)).toEqual([webhook, second.webhook]);
    expect(list.body).not.toContain(secret);
  });

  it('answers 403 to members and viewers, 404 to anyone not on the board and for a board that does not exist', async () => {
    const { admin, member, viewer, outsider, board } = await labelsTeam(t);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, RECEIVER, ['task.created']);
    for (const who of [member, viewer]) {
      expect((await api.list(who.cookie, board.id)).status).toBe(403);
      const res = await api.create(who.cookie, board.id, { url: RECEIVER, events: ['task.created'] });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ status: 'fail', code: 'FORBIDDEN' });
      expect((await api.update(who.cookie, board.id, webhook._id, { active: false })).status).toBe(403);
      expect((await api.remove(who.cookie, board.id, webhook._id)).status).toBe(403);
      expect((await api.deliveries(who.cookie, board.id, webhook._id)).status).toBe(403);
    }
    expect((await api.list(outsider.cookie, board.id)).status).toBe(404);
    expect((await api.create(outsider.cookie, board.id, { url: RECEIVER, events: ['task.created'] })).status).toBe(404);
    expect((await api.update(outsider.cookie, board.id, webhook._id, { active: false })).status).toBe(404);
    expect((await api.remove(outsider.cookie, board.id, webhook._id)).status).toBe(404);
    expect((await api.list(admin.cookie, newId())).status).toBe(404);
    expect((await api.list(admin.cookie, 'not an id')).status).toBe(404);
    expect((await t.request('GET', `/api/boards/${board.id}/webhooks`)).status).toBe(401);
    // Nothing changed.
    expect(webhooksOf(await api.list(admin.cookie, board.id))).toEqual([webhook]);
  });

  it('lets the owner of a personal board manage its webhooks', async () => {
    const owner = await createSignedInUser(t);
    const res = await api.create(owner.cookie, owner.user.id, { url: RECEIVER, events: ['task.created'] });
    expect(res.status, res.body).toBe(201);
  });

  it('refuses URLs that are not http(s), carry credentials, or are IP addresses that are not public (400, field url)', async () => {
    const { admin, board } = await labelsTeam(t);
    const refused = ['ftp://example.com/x', 'not a url', 'https://user:pass@example.com/', 'http://127.0.0.1:8080/hook', 'http://10.0.0.7/', 'http://[::1]/', 'http://169.254.169.254/latest'];
    for (const url of refused) {
      const res = await api.create(admin.cookie, board.id, { url, events: ['task.created'] });
      expect(res.status, url).toBe(400);
      expect(res.json, url).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED', errors: [{ field: 'url' }] });
    }
    for (const events of [[], ['board.updated'], ['task.created', 'task.created']]) {
      expect((await api.create(admin.cookie, board.id, { url: RECEIVER, events })).status, JSON.stringify(events)).toBe(400);
    }
    expect(webhooksOf(await api.list(admin.cookie, board.id))).toEqual([]);
    // Every event type of the contract is accepted.
    expect((await api.create(admin.cookie, board.id, { url: RECEIVER, events: [...WEBHOOK_EVENTS] })).status).toBe(201);
  });

  it(`stops at ${WEBHOOK_LIMITS.perBoard} webhooks per board (409 LIMIT_REACHED)`, async () => {
    const { admin, board } = await labelsTeam(t);
    for (let i = 0; i < WEBHOOK_LIMITS.perBoard; i++) await addWebhook(t, admin.cookie, board.id, `${RECEIVER}/${i}`, ['task.created']);
    const res = await api.create(admin.cookie, board.id, { url: RECEIVER, events: ['task.created'] });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ status: 'fail', code: 'LIMIT_REACHED' });
    expect(webhooksOf(await api.list(admin.cookie, board.id))).toHaveLength(WEBHOOK_LIMITS.perBoard);
  });
});

describe('PATCH/DELETE /api/boards/:id/webhooks/:hookId', () => {
  it('changes the URL and events, pauses, and resumes (which clears the failure clock)', async () => {
    const { admin, board } = await labelsTeam(t);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, RECEIVER, ['task.created']);
    const changed = await api.update(admin.cookie, board.id, webhook._id, { url: `${RECEIVER}/v2`, events: ['task.deleted'] });
    expect(changed.status, changed.body).toBe(200);
    expect(webhookOf(changed)).toMatchObject({ url: `${RECEIVER}/v2`, events: ['task.deleted'], active: true });
    const paused = await api.update(admin.cookie, board.id, webhook._id, { active: false });
    expect(webhookOf(paused).active).toBe(false);

    await t.app.db.updateTable('webhooks').set({ failingSince: '2031-03-01T00:00:00.000Z' }).where('id', '=', webhook._id).execute();
    const resumed = await api.update(admin.cookie, board.id, webhook._id, { active: true });
    expect(webhookOf(resumed)).toMatchObject({ active: true, failingSince: null });

    expect((await api.update(admin.cookie, board.id, webhook._id, { url: 'http://192.168.1.1/' })).status).toBe(400);
    expect((await api.update(admin.cookie, board.id, newId(), { active: false })).status).toBe(404);
    expect(webhookOf(await api.update(admin.cookie, board.id, webhook._id, {})).url).toBe(`${RECEIVER}/v2`);
  });

  it('deletes (204), then 404; a webhook of another board is not found through this one', async () => {
    const { admin, board } = await labelsTeam(t);
    const other = await insertBoard(t, admin.user);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, RECEIVER, ['task.created']);
    expect((await api.remove(admin.cookie, other.id, webhook._id)).status).toBe(404);
    expect((await api.update(admin.cookie, other.id, webhook._id, { active: false })).status).toBe(404);
    expect((await api.deliveries(admin.cookie, other.id, webhook._id)).status).toBe(404);
    const res = await api.remove(admin.cookie, board.id, webhook._id);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await api.remove(admin.cookie, board.id, webhook._id)).status).toBe(404);
    expect(webhooksOf(await api.list(admin.cookie, board.id))).toEqual([]);
  });
});

describe('GET …/deliveries and POST …/redeliver', () => {
  it('lists the newest 50 deliveries, newest first; redelivery answers 202 with a new pending row; unknown ids are 404', async () => {
    const { admin, member, board } = await labelsTeam(t);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, RECEIVER, ['task.created']);
    // A receiver that cannot be reached: every row stays pending (retried).
    const tasks = [];
    for (let i = 0; i < 3; i++) {
      tasks.push(await createTask(t, admin.cookie, { boardId: board.id }));
      t.clock.advance(1000);
    }
    const res = await api.deliveries(admin.cookie, board.id, webhook._id);
    expect(res.status).toBe(200);
    const log = deliveriesOf(res);
    expect(log).toHaveLength(3);
    expect(log[0]).toEqual({ _id: expect.any(String) as string, type: 'task.created', status: 'pending', attempts: expect.any(Number) as number, responseStatus: null, at: expect.any(String) as string });
    expect(log.map((d) => d.at)).toEqual([...log.map((d) => d.at)].sort().reverse());

    const first = log[2]!;
    expect((await api.redeliver(member.cookie, board.id, webhook._id, first._id)).status).toBe(403);
    expect((await api.redeliver(admin.cookie, board.id, webhook._id, newId())).status).toBe(404);
    t.clock.advance(1000);
    const again = await api.redeliver(admin.cookie, board.id, webhook._id, first._id);
    expect(again.status, again.body).toBe(202);
    const after = deliveriesOf(await api.deliveries(admin.cookie, board.id, webhook._id));
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({ type: 'task.created', status: 'pending' });
    // The redelivery carries the original's webhook-id and body.
    const rows = await deliveryRows(t, webhook._id);
    const original = rows.find((r) => r.id === first._id)!;
    const copy = rows.find((r) => r.id === after[0]!._id)!;
    expect(JSON.parse(copy.headers)).toEqual(JSON.parse(original.headers));
    expect(copy.textBody).toBe(original.textBody);

    // 50 at most.
    const at = t.clock.now().getTime();
    await t.app.db
      .insertInto('outbox')
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          id: newId(), kind: 'webhook', toEmail: '', subject: 'task.updated', textBody: '{}', htmlBody: '', headers: '{}', dedupeKey: null,
          status: 'sent' as const, attempts: 1, runAt: new Date(at + i).toISOString(), lockedBy: null, lockedUntil: null, lastError: null,
          createdAt: new Date(at + 10_000 + i).toISOString(), sentAt: null, causedBy: null, webhookId: webhook._id, responseStatus: 204,
        })),
      )
      .execute();
    const page = deliveriesOf(await api.deliveries(admin.cookie, board.id, webhook._id));
    expect(page).toHaveLength(50);
    expect(page[0]).toMatchObject({ status: 'delivered', responseStatus: 204, attempts: 1 });
  });
});

describe.runIf(isPostgres)('webhook races (PostgreSQL)', () => {
  it('concurrent creations stop at the limit (the board row is locked)', async () => {
    const { admin, board } = await labelsTeam(t);
    for (let i = 0; i < WEBHOOK_LIMITS.perBoard - 2; i++) await addWebhook(t, admin.cookie, board.id, `${RECEIVER}/${i}`, ['task.created']);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api.create(admin.cookie, board.id, { url: `${RECEIVER}/race-${i}`, events: ['task.created'] })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    expect(webhooksOf(await api.list(admin.cookie, board.id))).toHaveLength(WEBHOOK_LIMITS.perBoard);
  });
});
