import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EVENTS } from '#web/features/notifications/api/notification-events.ts';
import { notificationKeys, type NotificationPages } from '#web/features/notifications/api/query-keys.ts';
import { makeNotification } from '#web/testing/data.ts';
import { notificationLiveEvents } from './live-events.ts';

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
