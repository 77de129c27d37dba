import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { TaskCounts, TaskCountsEnvelope, TaskListEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { filterQuery, type BoardFilter } from './board-filter.ts';
import { taskKeys, type TaskPage } from './query-keys.ts';

/*
 * The board's fetchers and query options; the hooks live in get-tasks.ts and
 * get-task-counts.ts. `staleTime` comes from the live board (useBoardStaleTime).
 */

/** Cards per request: a screenful or two, small enough to answer fast on a 20,000-task board. */
export const TASK_PAGE_SIZE = 50;

interface PageParams {
  status: TaskStatus;
  filter: BoardFilter;
  /** One column of the board (its category is `status`); none: the status's tasks on every board. */
  column: string | undefined;
  cursor: string | null;
  signal?: AbortSignal;
}

async function getTasksPage(params: PageParams): Promise<TaskPage> {
  const { column, filter } = params;
  const envelope = await apiRequest<TaskListEnvelope>('/tasks', {
    query: {
      // A column holds one status (its category): sent all the same, so the server checks both.
      status: params.status,
      ...filterQuery(filter),
      column,
      sort: column && filter.sort === 'position' ? 'position' : filterQuery(filter).sort,
      limit: TASK_PAGE_SIZE,
      cursor: params.cursor,
    },
    signal: params.signal,
  });
  return { tasks: envelope.data.tasks, nextCursor: envelope.data.nextCursor ?? null };
}

export function taskColumnQueryOptions(status: TaskStatus, filter: BoardFilter, staleTime: number, column?: string) {
  return infiniteQueryOptions({
    queryKey: taskKeys.list(status, filter, column),
    queryFn: ({ pageParam, signal }) => getTasksPage({ status, filter, column, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime,
  });
}

async function getTaskCounts(filter: BoardFilter, signal?: AbortSignal): Promise<TaskCounts> {
  const envelope = await apiRequest<TaskCountsEnvelope>('/tasks/counts', {
    query: filterQuery(filter),
    signal,
  });
  return envelope.data.counts;
}

export function taskCountsQueryOptions(filter: BoardFilter, staleTime: number) {
  return queryOptions({
    queryKey: taskKeys.counts(filter),
    queryFn: ({ signal }) => getTaskCounts(filter, signal),
    staleTime,
  });
}
