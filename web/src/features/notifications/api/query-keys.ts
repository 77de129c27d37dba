import type { InfiniteData } from '@tanstack/react-query';
import type { Notification } from '#shared/schemas/notifications.ts';

/** One page of `GET /api/notifications` as the cache holds it (newest first). */
export interface NotificationPage {
  notifications: Notification[];
  nextCursor: string | null;
}
export type NotificationPages = InfiniteData<NotificationPage, string | null>;

export const notificationKeys = {
  all: ['notifications'] as const,
  /** The inbox, newest first, a page at a time. */
  list: () => [...notificationKeys.all, 'list'] as const,
  /** How many are unread: the bell's badge. Kept by every answer and live event that says. */
  unreadCount: () => [...notificationKeys.all, 'unread-count'] as const,
  /** Which types reach the person in the app and by push (not refreshed with the inbox). */
  settings: () => ['notification-settings'] as const,
};
