import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkReadBody, UnreadCountEnvelope } from '#shared/schemas/notifications.ts';
import { useNotices } from '#web/components/notices.tsx';
import { apiRequest } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { markInCache, readUnreadCount, setUnreadCount, type ReadTarget } from './notification-cache.ts';
import { notificationKeys } from './query-keys.ts';

/** `POST /api/notifications/read`: answers the unread count after the change. */
export async function markRead(target: ReadTarget): Promise<number> {
  const body: MarkReadBody = 'ids' in target ? { ids: [...target.ids] } : { all: true };
  const envelope = await apiRequest<UnreadCountEnvelope>('/notifications/read', { method: 'POST', body });
  return envelope.data.unreadCount;
}

interface Undo {
  changed: string[];
  /** How much the badge went down. */
  drop: number;
}

/**
 * Marks notifications read at once on screen (the item and the badge), then asks the server;
 * its answer sets the count. A failure puts back only what this change took away (a live event
 * that arrived meanwhile stays) and says so.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const { notify } = useNotices();
  return useMutation<number, unknown, ReadTarget, Undo>({
    mutationFn: markRead,
    onMutate: async (target) => {
      // A list or count in flight would answer from before this change.
      await queryClient.cancelQueries({ queryKey: notificationKeys.list() });
      await queryClient.cancelQueries({ queryKey: notificationKeys.unreadCount() });
      const before = readUnreadCount(queryClient) ?? 0;
      const changed = markInCache(queryClient, target, new Date().toISOString());
      const after = 'all' in target ? 0 : Math.max(0, before - changed.length);
      setUnreadCount(queryClient, after);
      return { changed, drop: before - after };
    },
    onSuccess: (unreadCount) => {
      setUnreadCount(queryClient, unreadCount);
    },
    onError: (error, _target, undo) => {
      if (undo !== undefined) {
        markInCache(queryClient, { ids: undo.changed }, null);
        setUnreadCount(queryClient, (readUnreadCount(queryClient) ?? 0) + undo.drop);
      }
      const reason = errorText(error);
      notify('error', t({ message: `Could not mark as read. ${reason}`, comment: 'reason: why, in the server’s or the app’s words' }));
    },
    onSettled: () => {
      // A first page cancelled above (the panel had only just opened) is asked for again.
      if (queryClient.getQueryData(notificationKeys.list()) === undefined) void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
    },
  });
}
