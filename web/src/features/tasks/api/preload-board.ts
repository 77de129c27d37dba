import type { QueryClient } from '@tanstack/react-query';
import { parseBoardFilter } from './board-filter.ts';
import { taskColumnQueryOptions, taskCountsQueryOptions } from './task-queries.ts';

/**
 * Starts the board's first requests (both columns' first page and the counts) while its code
 * is still downloading, instead of after. The board's own queries then find them in flight.
 */
export function preloadBoard(queryClient: QueryClient, search: string): void {
  const filter = parseBoardFilter(new URLSearchParams(search));
  const ignore = () => undefined; // the board's own query reports any failure
  queryClient.infiniteQuery(taskColumnQueryOptions('todo', filter)).catch(ignore);
  queryClient.infiniteQuery(taskColumnQueryOptions('done', filter)).catch(ignore);
  queryClient.query(taskCountsQueryOptions(filter)).catch(ignore);
}
