import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, PushPayload } from '#shared/schemas/notifications.ts';
import { english } from '../i18n/translate.ts';
import { notificationText, pushTitle } from '../services/notifications.ts';
import { createSignedInUser, createTask, setAccountLanguage } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { listening, notificationsApi } from './notifications-support.ts';
import { startPushService, type PushService } from './push-service.ts';
import { openStream } from './sse-client.ts';

/**
 * Notifications in their reader's language: the inbox as listed and as announced live, and the
 * push a device receives (decrypted by the test's own push service), each in the language of the
 * account that reads it, whatever language the person who caused it speaks.
 */
const t = useTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
const api = notificationsApi(t);

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

const setLanguage = (cookie: string, language: string) => setAccountLanguage(t, cookie, language);

describe('notifications in the reader’s language', () => {
  it('the inbox and its live announcement: in the reader’s language (Arabic), not the assignor’s (German)', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    await setLanguage(ada.cookie, 'de');
    const bob = await createSignedInUser(t);
    await setLanguage(bob.cookie, 'ar');
    const stream = await openStream(await listening(t), bob.cookie);
    await createTask(t, ada.cookie, { taskTitle: 'Check the van', assignee: bob.user.email });

    const about = { type: 'assigned', by: { fullName: 'Ada' }, task: { taskTitle: 'Check the van' }, board: null } as const;
    const arabic = notificationText(about, 'ar');
    expect(arabic).not.toBe(notificationText(about));
    const live = (await stream.nextOf('notification.created')).json as { notification: Notification };
    expect(live.notification.text).toBe(arabic);
    stream.close();
    const [listed] = (await api.inbox(bob.cookie)).notifications;
    expect(listed?.text).toBe(arabic);
    // Ada reads her own inbox in German; the same notification type says it in German there.
    await createTask(t, bob.cookie, { taskTitle: 'Water the plants', assignee: ada.user.email });
    const [adas] = (await api.inbox(ada.cookie)).notifications;
    expect(adas?.text).toBe(notificationText({ ...about, by: { fullName: bob.user.fullName }, task: { taskTitle: 'Water the plants' } }, 'de'));
  });

  it('a push: its heading and text in the language of the subscribed account (Japanese), sent without what it is about', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada' });
    const bob = await createSignedInUser(t);
    await setLanguage(bob.cookie, 'ja');
    const device = service.device();
    expect((await t.request('POST', '/api/push/subscriptions', { cookie: bob.cookie, body: device.subscription })).status).toBe(201);
    const task = await createTask(t, ada.cookie, { taskTitle: 'Oil the hinges', assignee: bob.user.email });
    await t.app.outbox.drain();
    await t.app.outbox.drain();

    const [push] = service.received.filter((r) => r.path === device.path);
    const [stored] = (await api.inbox(bob.cookie)).notifications;
    const expected: PushPayload = {
      title: pushTitle('assigned', 'ja'),
      body: notificationText({ type: 'assigned', by: { fullName: 'Ada' }, task: { taskTitle: 'Oil the hinges' }, board: null }, 'ja'),
      url: `/tasks/${task._id}`,
      id: stored!._id,
    };
    expect(expected.title).not.toBe(english('Assigned to you'));
    expect(JSON.parse(push!.plaintext as string)).toEqual(expected);
  });
});
