import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NoticeProvider } from '#web/components/notices.tsx';
import { SessionProvider } from '#web/features/auth/components/session-provider.tsx';

/** Everything the routes need around them. Tests wrap a memory router in the same stack. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <NoticeProvider>
        <SessionProvider>{children}</SessionProvider>
      </NoticeProvider>
    </QueryClientProvider>
  );
}
