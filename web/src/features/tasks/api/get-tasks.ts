import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { PriorityFilter } from './query-keys.ts';
import { taskColumnQueryOptions } from './task-queries.ts';

export { getTasksPage, TASK_PAGE_SIZE, taskColumnQueryOptions } from './task-queries.ts';

/**
 * One board column: pages of tasks in one status, newest first. While a new filter loads,
 * the previous filter's cards stay on screen (no flash of skeletons).
 */
export function useTaskColumn(status: TaskStatus, priority: PriorityFilter) {
  return useInfiniteQuery({ ...taskColumnQueryOptions(status, priority), placeholderData: keepPreviousData });
}
