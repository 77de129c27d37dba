import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_POLICY, type PushPayload } from '#shared/schemas/notifications.ts';
import { newId } from '../db/ids.ts';
import { PUSH_POLICY } from '../push/push-sender.ts';
import { createSignedInUser, type TestUser } from './factories.ts';
import { MINUTE, useTestApp } from './helpers.ts';
import { startPushService, type PushDevice, type PushService } from './push-service.ts';

const SUBJECT = 'mailto:push-admin@example.test';
const t = useTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', VAPID_SUBJECT: SUBJECT } });

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

const subscribe = (cookie: string, device: PushDevice | PushDevice['subscription'] | { endpoint: string }) =>
  t.request('POST', '/api/push/subscriptions', { cookie, body: 'subscription' in device ? device.subscription : device });

const subscriptionsOf = (userId: string) => t.app.pushSubscriptionsRepository.listFor(userId);

/** A subscribed device of a new signed-in person. */
async function subscribedDevice(host?: string) {
  const { user, cookie } = await createSignedInUser(t);
  const device = service.device(host);
  expect((await subscribe(cookie, device)).status).toBe(201);
  const [subscription] = await subscriptionsOf(user.id);
  return { user, cookie, device, subscriptionId: subscription!.id };
}

/** An outbox row of kind `push`, written the way the notification write does. */
async function enqueuePush(user: TestUser, subscriptionId: string, payload: Partial<PushPayload> = {}) {
  const notificationId = newId();
  const body: PushPayload = { title: 'Assigned to you', body: 'Ann assigned you "Fix the hinge"', url: '/tasks/t1', id: notificationId, ...payload };
  const now = t.clock.now().toISOString();
  const id = newId();
  await t.app.outboxRepository.insertMany([
    {
      id, kind: 'push', toEmail: user.email, subject: 'assigned', textBody: JSON.stringify(body), htmlBody: '', headers: '{}',
      dedupeKey: `push:${notificationId}:${subscriptionId}`, pushSubscriptionId: subscriptionId, causedBy: null,
      status: 'pending', attempts: 0, runAt: now, lockedBy: null, lockedUntil: null, lastError: null, createdAt: now, sentAt: null,
    },
  ]);
  return { id, body };
}

const outboxRow = (id: string) => t.app.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const receivedAt = (device: PushDevice) => service.received.filter((r) => r.path === device.path);
const drain = async () => {
  await t.app.outbox.drain();
  await t.app.outbox.drain();
};

describe('GET /api/push/public-key', () => {
  it('answers the configured VAPID public key without a session', async () => {
    const res = await t.request('GET', '/api/push/public-key');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', data: { publicKey: t.config.vapid.publicKey } });
    expect(Buffer.from(t.config.vapid.publicKey, 'base64url')).toHaveLength(65);
  });
});

describe('POST /api/push/subscriptions', () => {
  it('needs a session', async () => {
    expect((await subscribe('', service.device())).status).toBe(401);
  });

  it('stores the subscription (201); the same endpoint again stays one row with the new keys', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const device = service.device();
    const res = await subscribe(cookie, device);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'success', message: expect.any(String) as string });
    const again = service.device();
    const renewed = { ...device.subscription, keys: again.subscription.keys };
    expect((await subscribe(cookie, renewed)).status).toBe(201);
    const rows = await subscriptionsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: device.subscription.endpoint, p256dh: again.subscription.keys.p256dh, auth: again.subscription.keys.auth });
  });

  it('refuses an endpoint that is not an http(s) URL, and keys that are not a P-256 point and a 16-byte secret', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const good = service.device().subscription;
    for (const endpoint of ['ftp://push.example.com/x', 'javascript:alert(1)', 'not a url', 'file:///etc/passwd']) {
      const res = await subscribe(cookie, { ...good, endpoint });
      expect(res.status, endpoint).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'endpoint', message: expect.any(String) as string }]);
    }
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    for (const p256dh of [notOnCurve, randomBytes(33).toString('base64url'), 'not*base64']) {
      const res = await subscribe(cookie, { ...good, keys: { ...good.keys, p256dh } });
      expect(res.status, p256dh).toBe(400);
      expect(res.json.errors.map((e) => e.field)).toEqual(['keys.p256dh']);
    }
    for (const auth of [randomBytes(15).toString('base64url'), randomBytes(32).toString('base64url')]) {
      const res = await subscribe(cookie, { ...good, keys: { ...good.keys, auth } });
      expect(res.status).toBe(400);
      expect(res.json.errors.map((e) => e.field)).toEqual(['keys.auth']);
    }
    expect((await subscribe(cookie, { endpoint: good.endpoint })).status).toBe(400);
    expect(await subscriptionsOf(user.id)).toEqual([]);
  });

  it(`refuses the ${NOTIFICATION_POLICY.subscriptionsPerUser + 1}th device with 409 LIMIT_REACHED, also when they arrive at once`, async () => {
    const { user, cookie } = await createSignedInUser(t);
    const limit = NOTIFICATION_POLICY.subscriptionsPerUser;
    const answers = await Promise.all(Array.from({ length: limit + 3 }, () => subscribe(cookie, service.device())));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(limit);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.json.code])).toEqual(Array.from({ length: 3 }, () => [409, 'LIMIT_REACHED']));
    expect(await subscriptionsOf(user.id)).toHaveLength(limit);
    // A device already subscribed can still renew at the limit.
    const [first] = await subscriptionsOf(user.id);
    expect((await subscribe(cookie, { endpoint: first!.endpoint, keys: { p256dh: first!.p256dh, auth: first!.auth } })).status).toBe(201);
  });

  it("moves an endpoint to the account that subscribes it; the previous account's queued pushes are dropped, not sent", async () => {
    const { user: ann, cookie: annCookie } = await createSignedInUser(t);
    const { user: bob, cookie: bobCookie } = await createSignedInUser(t);
    const device = service.device();
    expect((await subscribe(annCookie, device)).status).toBe(201);
    const [annSubscription] = await subscriptionsOf(ann.id);
    const annPush = await enqueuePush(ann, annSubscription!.id);
    // Bob signs in on the same browser before Ann's push went out.
    expect((await subscribe(bobCookie, device)).status).toBe(201);
    expect(await subscriptionsOf(ann.id)).toEqual([]);
    const [bobSubscription] = await subscriptionsOf(bob.id);
    expect(bobSubscription).toMatchObject({ endpoint: device.subscription.endpoint });
    expect(bobSubscription!.id).not.toBe(annSubscription!.id);
    await drain();
    expect(receivedAt(device)).toEqual([]);
    expect(await outboxRow(annPush.id)).toMatchObject({ status: 'failed', lastError: 'subscription gone' });
  });
});

describe('DELETE /api/push/subscriptions', () => {
  it("deletes only the caller's own subscription; another's or an unknown endpoint: 204 and nothing changes", async () => {
    const ann = await subscribedDevice();
    const { cookie: bobCookie } = await createSignedInUser(t);
    const endpoint = ann.device.subscription.endpoint;
    expect((await t.request('DELETE', '/api/push/subscriptions', { cookie: bobCookie, body: { endpoint } })).status).toBe(204);
    expect(await subscriptionsOf(ann.user.id)).toHaveLength(1);
    expect((await t.request('DELETE', '/api/push/subscriptions', { cookie: ann.cookie, body: { endpoint: `${service.origin}/push/unknown` } })).status).toBe(204);
    expect(await subscriptionsOf(ann.user.id)).toHaveLength(1);
    expect((await t.request('DELETE', '/api/push/subscriptions', { cookie: ann.cookie, body: { endpoint } })).status).toBe(204);
    expect(await subscriptionsOf(ann.user.id)).toEqual([]);
    expect((await t.request('DELETE', '/api/push/subscriptions', { body: { endpoint } })).status).toBe(401);
  });

  it('subscriptions go with their account', async () => {
    const { user, subscriptionId } = await subscribedDevice();
    await t.app.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await t.app.pushSubscriptionsRepository.findById(subscriptionId)).toBeUndefined();
  });
});

describe('push delivery through the outbox', () => {
  it('sends the payload encrypted (RFC 8291, aes128gcm) and signed with VAPID (RFC 8292)', async () => {
    const { user, device, subscriptionId } = await subscribedDevice();
    const push = await enqueuePush(user, subscriptionId, { title: 'Ünïcode ✓', url: '/boards/b1' });
    const before = Math.floor(Date.now() / 1000);
    await drain();
    const [received] = receivedAt(device);
    expect(received).toBeDefined();
    expect(received!.headers['content-encoding']).toBe('aes128gcm');
    expect(received!.headers.ttl).toBe(String(PUSH_POLICY.ttlSeconds));
    expect(received!.headers.urgency).toBe('normal');
    expect(received!.vapid).toEqual({ claims: { aud: service.origin, exp: expect.any(Number) as number, sub: SUBJECT }, publicKey: expect.any(String) as string });
    const vapid = received!.vapid as { claims: { exp: number }; publicKey: string };
    const published = (await t.request('GET', '/api/push/public-key')).json.data as unknown as { publicKey: string };
    expect(vapid.publicKey).toBe(published.publicKey);
    expect(vapid.claims.exp).toBeGreaterThan(before);
    expect(vapid.claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 60 * 60);
    expect(JSON.parse(received!.plaintext as string)).toEqual(push.body);
    expect(await outboxRow(push.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // Delivered once.
    await drain();
    expect(receivedAt(device)).toHaveLength(1);
  });

  it.each([410, 404])('a %i deletes the subscription and fails the push without a retry', async (status) => {
    const { user, device, subscriptionId } = await subscribedDevice();
    service.respond(device.path, status);
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    expect(receivedAt(device)).toHaveLength(1);
    expect(await t.app.pushSubscriptionsRepository.findById(subscriptionId)).toBeUndefined();
    const row = await outboxRow(push.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toContain(`subscription gone (${status}`);
    expect(row.lastError).not.toContain(device.path);
  });

  it.each([500, 503, 429])('a %i is retried with back-off on the same row, and delivered later', async (status) => {
    const { user, device, subscriptionId } = await subscribedDevice();
    service.respond(device.path, status);
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    const waiting = await outboxRow(push.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lockedBy: null });
    expect(waiting.lastError).toBe(`${status} from ${service.origin}`);
    t.clock.advance(Math.max(0, Date.parse(waiting.runAt) - t.clock.now().getTime()));
    await drain();
    expect(receivedAt(device).map((r) => r.status)).toEqual([status, 201]);
    expect(await outboxRow(push.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await t.app.pushSubscriptionsRepository.findById(subscriptionId)).toBeDefined();
  });

  it('a network error (nothing listening) is retried', async () => {
    const { user, subscriptionId } = await subscribedDevice();
    const closed = await startPushService();
    const device = closed.device();
    await closed.close();
    await t.app.db.updateTable('pushSubscriptions').set({ endpoint: device.subscription.endpoint }).where('id', '=', subscriptionId).execute();
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    const row = await outboxRow(push.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('ECONNREFUSED');
    expect(Date.parse(row.runAt)).toBeGreaterThan(t.clock.now().getTime());
  });

  it.each([400, 401, 403, 413])('any other answer (%i) fails the push at once and keeps the subscription', async (status) => {
    const { user, device, subscriptionId } = await subscribedDevice();
    service.respond(device.path, status);
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    t.clock.advance(2 * MINUTE);
    await drain();
    expect(receivedAt(device)).toHaveLength(1);
    expect(await outboxRow(push.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: `${status} from ${service.origin}` });
    expect(await t.app.pushSubscriptionsRepository.findById(subscriptionId)).toBeDefined();
  });

  it('sends nothing for a subscription deleted before delivery', async () => {
    const { user, cookie, device, subscriptionId } = await subscribedDevice();
    // Deleted first, so the worker (which also polls) can never find the push before the deletion.
    await t.request('DELETE', '/api/push/subscriptions', { cookie, body: { endpoint: device.subscription.endpoint } });
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    expect(receivedAt(device)).toEqual([]);
    expect(await outboxRow(push.id)).toMatchObject({ status: 'failed', lastError: 'subscription gone' });
  });

  it('counts pending pushes apart from pending mails', async () => {
    const { user, device, subscriptionId } = await subscribedDevice();
    service.respond(device.path, 500);
    const pending = async () => [await t.app.outboxRepository.countPending('push'), await t.app.outboxRepository.countPending('mail')];
    const [pushes = 0, mails = 0] = await pending();
    await enqueuePush(user, subscriptionId);
    await drain();
    expect(await pending()).toEqual([pushes + 1, mails]);
  });
});

describe('push delivery without OUTBOUND_ALLOW_PRIVATE', () => {
  it.each(['127.0.0.1', 'localhost'])('refuses a target at %s: nothing is sent, the push fails at once', async (host) => {
    const { user, device, subscriptionId } = await subscribedDevice(host);
    await t.rebuild({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    const push = await enqueuePush(user, subscriptionId);
    await drain();
    t.clock.advance(2 * MINUTE);
    await drain();
    expect(receivedAt(device)).toEqual([]);
    const row = await outboxRow(push.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toMatch(/^refused: .*loopback/);
    expect(row.lastError).not.toContain(device.path);
    expect(await t.app.pushSubscriptionsRepository.findById(subscriptionId)).toBeDefined();
  });
});
