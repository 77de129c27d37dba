import type { QueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/schemas/notifications.ts';
import { notificationKeys, type NotificationPages } from './query-keys.ts';

/*
 * Writes into the cached inbox and count, shared by the live events and by marking read. A
 * list that is not cached is left alone: the panel asks for it when it opens.
 */

export function setUnreadCount(queryClient: QueryClient, count: number): void {
  queryClient.setQueryData(notificationKeys.unreadCount(), Math.max(0, count));
}

export function readUnreadCount(queryClient: QueryClient): number | undefined {
  return queryClient.getQueryData<number>(notificationKeys.unreadCount());
}

/** A new notification at the top of the first page (once: a replayed event changes nothing). */
export function prependNotification(queryClient: QueryClient, notification: Notification): void {
  queryClient.setQueryData<NotificationPages>(notificationKeys.list(), (data) => {
    if (data === undefined) return data;
    if (data.pages.some((page) => page.notifications.some((n) => n._id === notification._id))) return data;
    const [first, ...rest] = data.pages;
    if (first === undefined) return data;
    return { ...data, pages: [{ ...first, notifications: [notification, ...first.notifications] }, ...rest] };
  });
}

/** Which notifications to mark: these ids, or every one. */
export type ReadTarget = { ids: readonly string[] } | { all: true };

/**
 * Marks the target read (at `at`) in the cached list, or unread again (`at` null) for a
 * rollback. Returns the ids whose state it changed.
 */
export function markInCache(queryClient: QueryClient, target: ReadTarget, at: string | null): string[] {
  const changed: string[] = [];
  const wanted = 'ids' in target ? new Set(target.ids) : null;
  queryClient.setQueryData<NotificationPages>(notificationKeys.list(), (data) => {
    if (data === undefined) return data;
    const pages = data.pages.map((page) => ({
      ...page,
      notifications: page.notifications.map((n) => {
        if (wanted !== null && !wanted.has(n._id)) return n;
        if ((n.readAt === null) === (at === null)) return n;
        changed.push(n._id);
        return { ...n, readAt: at };
      }),
    }));
    return { ...data, pages };
  });
  return changed;
}
