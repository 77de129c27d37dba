import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { TaskListEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { taskKeys, type PriorityFilter, type TaskPage } from './query-keys.ts';

/** Cards per request: a screenful or two, small enough to answer fast on a 20,000-task board. */
export const TASK_PAGE_SIZE = 50;

export async function getTasksPage(params: {
  status: TaskStatus;
  priority: PriorityFilter;
  cursor: string | null;
  limit?: number;
  signal?: AbortSignal;
}): Promise<TaskPage> {
  const envelope = await apiRequest<TaskListEnvelope>('/tasks', {
    query: {
      status: params.status,
      priority: params.priority || undefined,
      limit: params.limit ?? TASK_PAGE_SIZE,
      cursor: params.cursor,
    },
    signal: params.signal,
  });
  return { tasks: envelope.data.tasks, nextCursor: envelope.data.nextCursor ?? null };
}

export function taskColumnQueryOptions(status: TaskStatus, priority: PriorityFilter) {
  return infiniteQueryOptions({
    queryKey: taskKeys.list(status, priority),
    queryFn: ({ pageParam, signal }) => getTasksPage({ status, priority, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * One board column: pages of tasks in one status, newest first. While a new filter loads,
 * the previous filter's cards stay on screen (no flash of skeletons).
 */
export function useTaskColumn(status: TaskStatus, priority: PriorityFilter) {
  return useInfiniteQuery({ ...taskColumnQueryOptions(status, priority), placeholderData: keepPreviousData });
}
