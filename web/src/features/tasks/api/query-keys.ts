import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { BoardFilter } from './board-filter.ts';

export { parsePriorityFilter, type PriorityFilter } from './board-filter.ts';

export interface TaskPage {
  tasks: Task[];
  nextCursor: string | null;
}

export type TaskPages = InfiniteData<TaskPage, string | null>;

/** One key tree, so a single invalidation of `taskKeys.all` refreshes the whole board. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (status: TaskStatus, filter: BoardFilter) => [...taskKeys.lists(), { status, ...filter }] as const,
  counts: (filter: BoardFilter) => [...taskKeys.all, 'counts', { ...filter }] as const,
  /** One task, its comments and its activity (the task page). */
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
};

/**
 * A refresh of the board (`event: reset`, or an event stream opened anew) refetches every page a
 * column holds, one after the other. A column scrolled deep would cost many requests, so it is
 * cut back to this many pages first; the rest reloads as the user scrolls on.
 */
export const MAX_PAGES_REFETCHED = 4;

const trimmed = (data: TaskPages | undefined): TaskPages | undefined =>
  data && data.pages.length > MAX_PAGES_REFETCHED
    ? { pages: data.pages.slice(0, MAX_PAGES_REFETCHED), pageParams: data.pageParams.slice(0, MAX_PAGES_REFETCHED) }
    : data;

/** Cuts the cached pages of the matching columns back to MAX_PAGES_REFETCHED. */
export function trimPages(queryClient: QueryClient, queryKey: readonly unknown[] = taskKeys.lists()): void {
  queryClient.setQueriesData<TaskPages>({ queryKey }, trimmed);
}

/** Refetch everything on the board (after `event: reset` or an event stream opened anew). */
export async function refreshTasks(queryClient: QueryClient): Promise<void> {
  trimPages(queryClient);
  await queryClient.invalidateQueries({ queryKey: taskKeys.all });
}
