import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { TaskCountsEnvelope, TaskListEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { filterQuery, type BoardFilter } from './board-filter.ts';
import { isLiveStreamOpen } from './live-events.ts';
import { taskKeys, type TaskPage } from './query-keys.ts';

/*
 * The board's fetchers and query options; the hooks live in get-tasks.ts and
 * get-task-counts.ts. How the data flows after a fetch: see task-cache.ts.
 */

/** Cards per request: a screenful or two, small enough to answer fast on a 20,000-task board. */
export const TASK_PAGE_SIZE = 50;

export interface TaskCounts {
  todo: number;
  done: number;
  /** Open tasks whose deadline has passed (absent from a server that does not count them). */
  overdue?: number;
}

export async function getTasksPage(params: {
  status: TaskStatus;
  filter: BoardFilter;
  cursor: string | null;
  limit?: number;
  signal?: AbortSignal;
}): Promise<TaskPage> {
  const envelope = await apiRequest<TaskListEnvelope>('/tasks', {
    query: {
      status: params.status,
      ...filterQuery(params.filter),
      limit: params.limit ?? TASK_PAGE_SIZE,
      cursor: params.cursor,
    },
    signal: params.signal,
  });
  return { tasks: envelope.data.tasks, nextCursor: envelope.data.nextCursor ?? null };
}

/**
 * Fresh while the live stream is open (every change is written into the cache as it happens);
 * without it, stale a second after it arrived, so a list shown again is asked again. The second
 * is for a filter change, which asks for its lists at the click, before the board renders them
 * (task-board.tsx): the board must take that answer, not ask again.
 */
export const JUST_FETCHED_MS = 1000;
const staleTime = () => (isLiveStreamOpen() ? Infinity : JUST_FETCHED_MS);

export function taskColumnQueryOptions(status: TaskStatus, filter: BoardFilter) {
  return infiniteQueryOptions({
    queryKey: taskKeys.list(status, filter),
    queryFn: ({ pageParam, signal }) => getTasksPage({ status, filter, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime,
  });
}

export async function getTaskCounts(filter: BoardFilter, signal?: AbortSignal): Promise<TaskCounts> {
  const envelope = await apiRequest<TaskCountsEnvelope>('/tasks/counts', {
    query: filterQuery(filter),
    signal,
  });
  return envelope.data.counts;
}

export function taskCountsQueryOptions(filter: BoardFilter) {
  return queryOptions({
    queryKey: taskKeys.counts(filter),
    queryFn: ({ signal }) => getTaskCounts(filter, signal),
    staleTime,
  });
}
