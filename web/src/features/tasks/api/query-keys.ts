import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { PRIORITIES, type Priority, type TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';

/** "" is the seed's "All Tasks". */
export type PriorityFilter = Priority | '';

/** The `?priority=` of the board's URL; anything unknown is "All Tasks". */
export function parsePriorityFilter(raw: string | null): PriorityFilter {
  return PRIORITIES.includes(raw as Priority) ? (raw as Priority) : '';
}

export interface TaskPage {
  tasks: Task[];
  nextCursor: string | null;
}

export type TaskPages = InfiniteData<TaskPage, string | null>;

/** One key tree, so a single invalidation of `taskKeys.all` refreshes the whole board. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (status: TaskStatus, priority: PriorityFilter) => [...taskKeys.lists(), { status, priority }] as const,
  counts: (priority: PriorityFilter) => [...taskKeys.all, 'counts', { priority }] as const,
};

/**
 * After a change a column refetches every page it holds, one after the other. A column
 * scrolled deep would cost many requests, so it is cut back to this many pages first; the
 * rest reloads as the user scrolls on.
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

/** Refetch everything on the board (after any change). */
export async function refreshTasks(queryClient: QueryClient): Promise<void> {
  trimPages(queryClient);
  await queryClient.invalidateQueries({ queryKey: taskKeys.all });
}
