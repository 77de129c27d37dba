import type { QueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/schemas/notifications.ts';
import { markInCache, prependNotification, setUnreadCount } from './notification-cache.ts';
import { notificationKeys } from './query-keys.ts';

/*
 * The person's own notification events on the tab's live stream. Each carries the unread count
 * as the server counted it after the change, so the badge never adds or subtracts itself:
 * `notification.created` brings the notification (to the top of the inbox), `notification.read`
 * the ids read (or all) by this person in another tab or on another device, or in this one.
 */

export const NOTIFICATION_EVENTS = ['notification.created', 'notification.read'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isNotification(value: unknown): value is Notification {
  return isRecord(value) && typeof value._id === 'string' && typeof value.text === 'string' && typeof value.at === 'string';
}

export function applyNotificationEvent(queryClient: QueryClient, type: string, data: unknown): void {
  if (!isRecord(data) || typeof data.unreadCount !== 'number') return;
  if (type === 'notification.created') {
    if (!isNotification(data.notification)) return;
    prependNotification(queryClient, data.notification);
  } else if (type === 'notification.read') {
    const at = new Date().toISOString();
    if (data.all === true) markInCache(queryClient, { all: true }, at);
    else if (Array.isArray(data.ids)) markInCache(queryClient, { ids: data.ids.filter((id): id is string => typeof id === 'string') }, at);
    else return;
  } else {
    return;
  }
  setUnreadCount(queryClient, data.unreadCount);
}

/** After events may have been missed: the count and any cached inbox are asked again. */
export async function refreshNotifications(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}
