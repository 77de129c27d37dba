import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

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
        // Every change invalidates the board, so data need not be refetched on each mount.
        staleTime: 15_000,
      },
      mutations: { retry: false },
    },
  });
}
