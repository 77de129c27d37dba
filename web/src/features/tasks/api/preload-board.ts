import type { QueryClient } from '@tanstack/react-query';
import { parsePriorityFilter } from './query-keys.ts';
import { taskColumnQueryOptions, taskCountsQueryOptions } from './task-queries.ts';

/**
 * Starts the board's first requests (both columns' first page and the counts) while its code
 * is still downloading, instead of after. The board's own queries then find them in flight.
 */
export function preloadBoard(queryClient: QueryClient, rawPriority: string | null): void {
  const priority = parsePriorityFilter(rawPriority);
  const ignore = () => undefined; // the board's own query reports any failure
  queryClient.infiniteQuery(taskColumnQueryOptions('todo', priority)).catch(ignore);
  queryClient.infiniteQuery(taskColumnQueryOptions('done', priority)).catch(ignore);
  queryClient.query(taskCountsQueryOptions(priority)).catch(ignore);
}
