import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';
import { COPY_GC_TIME_MS } from './device-copy.ts';

/** Retry only what another try can fix: no answer at all, or a 5xx. Never a 4xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (!isApiError(error)) return false;
  const transient = error.status === 0 || error.status >= 500;
  return transient && failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // A remount does not ask again for data fetched within 15 s. The board's lists and counts
        // set their own staleTime (task-queries.ts): the cache keeps them current in place.
        staleTime: 15_000,
        // What was seen stays in memory, and so in the device copy, as long as the copy keeps it
        // (TanStack's default would drop a page's data five minutes after it was left).
        gcTime: COPY_GC_TIME_MS,
      },
      mutations: { retry: false },
    },
  });
}
