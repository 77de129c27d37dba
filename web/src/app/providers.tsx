import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NoticeProvider } from '#web/components/notices.tsx';
import { SessionProvider } from '#web/features/auth/components/session-provider.tsx';
import { QueueNotices } from './queue-notices.tsx';
import { registerQueuedWrites } from './write-queue.ts';

/** Everything the routes need around them. Tests wrap a memory router in the same stack. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // Before anything can make (or restore) a queued change; a second call does nothing.
  registerQueuedWrites(queryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <NoticeProvider>
        <QueueNotices />
        <SessionProvider>{children}</SessionProvider>
      </NoticeProvider>
    </QueryClientProvider>
  );
}
