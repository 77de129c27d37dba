import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { BoardFilter } from './board-filter.ts';
import { useBoardStaleTime } from './live-board-context.ts';
import { taskColumnQueryOptions } from './task-queries.ts';

/**
 * One board column: pages of tasks in one status (`column`: in one of the board's columns), in
 * the filter's order. While a new filter
 * loads, the previous filter's cards stay on screen (no flash of skeletons).
 */
export function useTaskColumn(status: TaskStatus, filter: BoardFilter, column?: string) {
  return useInfiniteQuery({ ...taskColumnQueryOptions(status, filter, useBoardStaleTime(), column), placeholderData: keepPreviousData });
}
