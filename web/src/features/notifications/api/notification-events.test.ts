import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makeNotification } from '#web/testing/data.ts';
import { applyNotificationEvent, refreshNotifications } from './notification-events.ts';
import { notificationKeys, type NotificationPages } from './query-keys.ts';

function cache(pages?: NotificationPages['pages']) {
  const client = new QueryClient();
  if (pages !== undefined) client.setQueryData<NotificationPages>(notificationKeys.list(), { pages, pageParams: pages.map((_, i) => (i === 0 ? null : `c${i}`)) });
  client.setQueryData(notificationKeys.unreadCount(), 2);
  const ids = () => client.getQueryData<NotificationPages>(notificationKeys.list())?.pages.map((p) => p.notifications.map((n) => n._id));
  const unread = () => client.getQueryData<NotificationPages>(notificationKeys.list())?.pages.flatMap((p) => p.notifications.filter((n) => n.readAt === null).map((n) => n._id));
  const count = () => client.getQueryData<number>(notificationKeys.unreadCount());
  return { client, ids, unread, count };
}

describe('notification events on the live stream', () => {
  it('notification.created puts the notification at the top of the inbox, once, and takes the count from the event', () => {
    const [a, b, c] = [makeNotification(), makeNotification(), makeNotification()];
    const { client, ids, count } = cache([
      { notifications: [a], nextCursor: 'c1' },
      { notifications: [b], nextCursor: null },
    ]);
    applyNotificationEvent(client, 'notification.created', { notification: c, unreadCount: 7 });
    expect(ids()).toEqual([[c._id, a._id], [b._id]]);
    expect(count()).toBe(7);

    // A replayed event (after a reconnect) adds nothing.
    applyNotificationEvent(client, 'notification.created', { notification: c, unreadCount: 7 });
    expect(ids()).toEqual([[c._id, a._id], [b._id]]);
  });

  it('keeps the count when the inbox is not cached (the panel asks for it when opened)', () => {
    const { client, ids, count } = cache();
    applyNotificationEvent(client, 'notification.created', { notification: makeNotification(), unreadCount: 3 });
    expect(ids()).toBeUndefined();
    expect(count()).toBe(3);
  });

  it('notification.read marks the ids read, or all, and takes the count from the event', () => {
    const [a, b, c] = [makeNotification(), makeNotification(), makeNotification()];
    const { client, unread, count } = cache([{ notifications: [a, b, c], nextCursor: null }]);
    applyNotificationEvent(client, 'notification.read', { ids: [b._id, 'someone-elses'], unreadCount: 2 });
    expect(unread()).toEqual([a._id, c._id]);
    expect(count()).toBe(2);

    applyNotificationEvent(client, 'notification.read', { all: true, unreadCount: 0 });
    expect(unread()).toEqual([]);
    expect(count()).toBe(0);
  });

  it('ignores data that is not an event of its kind', () => {
    const a = makeNotification();
    const { client, ids, count } = cache([{ notifications: [a], nextCursor: null }]);
    applyNotificationEvent(client, 'notification.created', { notification: { _id: 'x' }, unreadCount: 9 });
    applyNotificationEvent(client, 'notification.created', { notification: makeNotification() });
    applyNotificationEvent(client, 'notification.read', { unreadCount: 9 });
    applyNotificationEvent(client, 'notification.other', { unreadCount: 9 });
    applyNotificationEvent(client, 'notification.read', null);
    expect(ids()).toEqual([[a._id]]);
    expect(count()).toBe(2);
  });

  it('after missed events, asks for the count and the inbox again (the settings stay)', async () => {
    const { client } = cache([{ notifications: [makeNotification()], nextCursor: null }]);
    client.setQueryData(notificationKeys.settings(), { app: {}, push: {} });
    await refreshNotifications(client);
    expect(client.getQueryState(notificationKeys.list())?.isInvalidated).toBe(true);
    expect(client.getQueryState(notificationKeys.unreadCount())?.isInvalidated).toBe(true);
    expect(client.getQueryState(notificationKeys.settings())?.isInvalidated).toBe(false);
  });
});
