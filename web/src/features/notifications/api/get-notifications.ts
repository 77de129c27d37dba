import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { NOTIFICATION_POLICY, type NotificationListEnvelope } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys, type NotificationPage } from './query-keys.ts';

interface ListParams {
  cursor?: string | null;
  limit?: number;
  unread?: boolean;
}

/** `GET /api/notifications`: a page, newest first, with the unread count. */
export async function getNotifications({ cursor = null, limit = NOTIFICATION_POLICY.pageDefault, unread = false }: ListParams, signal?: AbortSignal) {
  const envelope = await apiRequest<NotificationListEnvelope>('/notifications', {
    query: { limit, cursor, unread: unread ? 'true' : undefined },
    signal,
  });
  return envelope.data;
}

/**
 * The inbox as an infinite query. Only the pages asked for are held and rendered ("Load more"),
 * so 1,000 notifications cost what 20 do until someone pages through them. Every page's answer
 * also brings the unread count, which goes where the bell reads it.
 */
export const notificationListOptions = (queryClient: QueryClient) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: async ({ pageParam, signal }): Promise<NotificationPage> => {
      const { notifications, nextCursor, unreadCount } = await getNotifications({ cursor: pageParam }, signal);
      queryClient.setQueryData(notificationKeys.unreadCount(), unreadCount);
      return { notifications, nextCursor };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/**
 * The unread count: asked once with the smallest page (the bell shows on every signed-in page,
 * the list only when opened); after that live events, list pages and mark-read answers keep
 * it, so it never goes stale on its own. A missed-events refresh asks again.
 */
export const unreadCountOptions = () =>
  queryOptions({
    queryKey: notificationKeys.unreadCount(),
    queryFn: async ({ signal }) => (await getNotifications({ limit: 1, unread: true }, signal)).unreadCount,
    staleTime: Infinity,
  });

export function useUnreadCount() {
  return useQuery(unreadCountOptions());
}

export function useNotifications(queryClient: QueryClient, enabled: boolean) {
  return useInfiniteQuery({ ...notificationListOptions(queryClient), enabled });
}
