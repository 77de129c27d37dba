import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskCountsEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { taskKeys, type PriorityFilter } from './query-keys.ts';

export interface TaskCounts {
  todo: number;
  done: number;
}

export async function getTaskCounts(priority: PriorityFilter, signal?: AbortSignal): Promise<TaskCounts> {
  const envelope = await apiRequest<TaskCountsEnvelope>('/tasks/counts', {
    query: { priority: priority || undefined },
    signal,
  });
  return envelope.data.counts;
}

export function taskCountsQueryOptions(priority: PriorityFilter) {
  return queryOptions({
    queryKey: taskKeys.counts(priority),
    queryFn: ({ signal }) => getTaskCounts(priority, signal),
  });
}

/** The column badges: exact totals even when only the first page of a column is loaded. */
export function useTaskCounts(priority: PriorityFilter) {
  return useQuery({ ...taskCountsQueryOptions(priority), placeholderData: keepPreviousData });
}
