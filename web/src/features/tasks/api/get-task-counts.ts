import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BoardFilter } from './board-filter.ts';
import { useBoardStaleTime } from './live-board-context.ts';
import { taskCountsQueryOptions } from './task-queries.ts';

/** The column badges: exact totals even when only the first page of a column is loaded. */
export function useTaskCounts(filter: BoardFilter, enabled = true) {
  return useQuery({ ...taskCountsQueryOptions(filter, useBoardStaleTime()), placeholderData: keepPreviousData, enabled });
}
