import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNotices } from '#web/components/notices.tsx';
import { queueNotices } from '#web/lib/write-queue.ts';

/**
 * Shows the messages of the queue's answer handlers (which run outside React) as notices,
 * including those that came before this mounted (a change restored from the device and
 * refused before the page was drawn). Renders nothing.
 */
export function QueueNotices() {
  const queryClient = useQueryClient();
  const { notify } = useNotices();
  useEffect(
    () =>
      queueNotices.attach(queryClient, ({ tone, text }) => {
        notify(tone, text);
      }),
    [queryClient, notify],
  );
  return null;
}
