import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { attachmentUrl, type Attachment } from '#shared/schemas/attachments.ts';
import { ATTACHMENT_EVENTS } from '#web/features/attachments/api/attachment-events.ts';
import { attachmentKeys } from '#web/features/attachments/api/query-keys.ts';
import { NOTIFICATION_EVENTS } from '#web/features/notifications/api/notification-events.ts';
import { notificationKeys, type NotificationPages } from '#web/features/notifications/api/query-keys.ts';
import { ADA, makeNotification } from '#web/testing/data.ts';
import { attachmentLiveEvents, notificationLiveEvents } from './live-events.ts';

describe('the notifications on the live stream', () => {
  it('the app listens for exactly these events, and hands them over in order', async () => {
    expect(notificationLiveEvents.types).toEqual(NOTIFICATION_EVENTS);
    const [a, b] = [makeNotification(), makeNotification()];
    const client = new QueryClient();
    client.setQueryData<NotificationPages>(notificationKeys.list(), { pages: [{ notifications: [], nextCursor: null }], pageParams: [null] });
    const ids = () => client.getQueryData<NotificationPages>(notificationKeys.list())?.pages.map((p) => p.notifications.map((n) => n._id));
    const count = () => client.getQueryData<number>(notificationKeys.unreadCount());
    notificationLiveEvents.apply(client, 'notification.created', { notification: a, unreadCount: 3 });
    notificationLiveEvents.apply(client, 'notification.created', { notification: b, unreadCount: 4 });
    notificationLiveEvents.apply(client, 'notification.read', { ids: [a._id], unreadCount: 3 });
    await expect.poll(count).toBe(3);
    expect(ids()).toEqual([[b._id, a._id]]);
  });
});

describe('the attachments on the live stream', () => {
  it('the app listens for exactly these events, and someone else’s upload shows on the open task', async () => {
    expect(attachmentLiveEvents.types).toEqual(ATTACHMENT_EVENTS);
    const client = new QueryClient();
    const key = attachmentKeys.list('t1');
    client.setQueryData<Attachment[]>(key, []);
    const theirs: Attachment = { _id: 'a1', name: 'plan.pdf', size: 10, type: 'application/pdf', url: attachmentUrl('a1'), by: ADA, createdAt: '2026-11-01T10:00:00.000Z' };
    attachmentLiveEvents.apply(client, 'attachment.created', { taskId: 't1', attachment: theirs, by: ADA });
    await expect.poll(() => client.getQueryData<Attachment[]>(key)?.map((a) => a.name)).toEqual(['plan.pdf']);
    attachmentLiveEvents.apply(client, 'attachment.deleted', { taskId: 't1', attachment: { _id: 'a1' }, by: ADA });
    await expect.poll(() => client.getQueryData<Attachment[]>(key)).toEqual([]);
  });
});
