import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '#shared/schemas/notifications.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { notificationsApi } from './notifications-support.ts';
import { startPushService, type PushDevice, type PushService } from './push-service.ts';

/**
 * The whole path of a push: a change in the API → the notification and its outbox row, written
 * by the change → the outbox worker → web-push's encryption and VAPID signature → a real push
 * service on 127.0.0.1 (push-service.ts, written from the RFCs with node:crypto alone) that
 * verifies the signature and decrypts what the browser would read.
 */
const SUBJECT = 'mailto:push-admin@example.test';
const t = useTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', VAPID_SUBJECT: SUBJECT } });
const api = notificationsApi(t);

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

async function subscribedPerson(fullName: string) {
  const person = await createSignedInUser(t, { fullName });
  const device = service.device();
  const res = await t.request('POST', '/api/push/subscriptions', { cookie: person.cookie, body: device.subscription });
  expect(res.status).toBe(201);
  return { ...person, device };
}

const receivedBy = (device: PushDevice) => service.received.filter((r) => r.path === device.path);
const deliverAll = async () => {
  await t.app.outbox.drain();
  await t.app.outbox.drain();
};

describe('a notification pushed to a subscribed browser', () => {
  it('arrives signed with the server’s VAPID key and decrypts to the notification’s title, text, link and id', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await subscribedPerson('Bob Builder');
    const task = await createTask(t, ada.cookie, { taskTitle: 'Oil the hinges', assignee: bob.user.email });
    await deliverAll();

    const [push, ...more] = receivedBy(bob.device);
    expect(more).toHaveLength(0);
    expect(push?.status).toBe(201);
    const publicKey = (await t.request('GET', '/api/push/public-key')).json as unknown as { data: { publicKey: string } };
    expect(push?.vapid).toMatchObject({ publicKey: publicKey.data.publicKey, claims: { aud: service.origin, sub: SUBJECT } });
    const [stored] = (await api.inbox(bob.cookie)).notifications;
    const expected: PushPayload = {
      title: 'Assigned to you',
      body: 'Ada Lovelace assigned you \u201cOil the hinges\u201d',
      url: `/tasks/${task._id}`,
      id: stored!._id,
    };
    expect(JSON.parse(push!.plaintext as string)).toEqual(expected);
    const row = await t.app.db.selectFrom('outbox').select(['status', 'attempts']).where('kind', '=', 'push').where('toEmail', '=', bob.user.email).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', attempts: 1 });
  });

  it('is not pushed when the person turned push off for that type, nor for their own action, while the inbox still has it', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await subscribedPerson('Bob Builder');
    const off = await t.request('PATCH', '/api/notification-settings', { cookie: bob.cookie, body: { push: { assigned: false } } });
    expect(off.status).toBe(200);
    await createTask(t, ada.cookie, { taskTitle: 'Quiet on the phone', assignee: bob.user.email });
    await createTask(t, bob.cookie, { taskTitle: 'My own', assignee: bob.user.email });
    await deliverAll();

    expect(receivedBy(bob.device)).toHaveLength(0);
    const inbox = await api.inbox(bob.cookie);
    expect(inbox.notifications.map((n) => n.text)).toEqual(['Ada Lovelace assigned you \u201cQuiet on the phone\u201d']);
  });

  it('goes to every device of the person, and a device the push service no longer knows (410) is forgotten', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await subscribedPerson('Bob Builder');
    const laptop = service.device();
    expect((await t.request('POST', '/api/push/subscriptions', { cookie: bob.cookie, body: laptop.subscription })).status).toBe(201);
    service.respond(bob.device.path, 410);
    await createTask(t, ada.cookie, { taskTitle: 'Two devices', assignee: bob.user.email });
    await deliverAll();

    expect(receivedBy(laptop).map((r) => r.status)).toEqual([201]);
    expect(receivedBy(bob.device).map((r) => r.status)).toEqual([410]);
    const left = await t.app.pushSubscriptionsRepository.listFor(bob.user.id);
    expect(left.map((s) => s.endpoint)).toEqual([laptop.subscription.endpoint]);
  });
});
