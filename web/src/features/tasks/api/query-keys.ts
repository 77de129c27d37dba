import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { BoardFilter } from './board-filter.ts';

export interface TaskPage {
  tasks: Task[];
  nextCursor: string | null;
}

export type TaskPages = InfiniteData<TaskPage, string | null>;

/** One key tree, so a single invalidation of `taskKeys.all` refreshes the whole board. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  /** A list of one status (`column`: of one column of the board, whose category is `status`). */
  list: (status: TaskStatus, filter: BoardFilter, column?: string) => [...taskKeys.lists(), column ? { status, ...filter, column } : { status, ...filter }] as const,
  allCounts: () => [...taskKeys.all, 'counts'] as const,
  counts: (filter: BoardFilter) => [...taskKeys.allCounts(), { ...filter }] as const,
  /** One task and its activity (the task page). */
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
};

/**
 * A task changed: a task page showing it asks again for what hangs off it (its activity); the
 * task itself is written into the cache by whoever calls this. Both a live event and the answer
 * to this tab's own write call it, because whichever of the two arrives second is not newer and
 * changes nothing.
 */
export function refreshTaskDetails(queryClient: QueryClient, id: string): void {
  const key = taskKeys.detail(id);
  void queryClient.invalidateQueries({ queryKey: key, predicate: (query) => query.queryKey.length > key.length });
}

/** The filter part of a list's key (`status` set, `column` for a board's column) or a count's key (no `status`). */
export type KeyFilter = Partial<BoardFilter> & { status?: TaskStatus; column?: string };

/** What decides which tasks a list holds, order and status aside: lists and counts alike. */
export const membershipOf = (filter: KeyFilter): string => JSON.stringify([filter.priority ?? '', filter.view ?? '', filter.q ?? '', filter.board ?? '', filter.label ?? '']);

export function filterOfKey(key: readonly unknown[]): KeyFilter {
  const filter: KeyFilter = key[2] ?? {};
  return filter;
}

/**
 * A refetch of a column asks again for every page it holds, one after the other. A column
 * scrolled deep would cost many requests, so it is cut back to this many pages first; the
 * rest reloads as the user scrolls on.
 */
export const MAX_PAGES_REFETCHED = 4;

const trimmed = (data: TaskPages | undefined): TaskPages | undefined =>
  data && data.pages.length > MAX_PAGES_REFETCHED
    ? { pages: data.pages.slice(0, MAX_PAGES_REFETCHED), pageParams: data.pageParams.slice(0, MAX_PAGES_REFETCHED) }
    : data;

/** Cuts the cached pages of every column back to MAX_PAGES_REFETCHED. */
function trimPages(queryClient: QueryClient): void {
  queryClient.setQueriesData<TaskPages>({ queryKey: taskKeys.lists() }, trimmed);
}

/** Cuts the cached pages of the column `key` back to MAX_PAGES_REFETCHED (other keys are left alone). */
export function trimList(queryClient: QueryClient, key: readonly unknown[]): void {
  if (key[0] === taskKeys.all[0] && key[1] === taskKeys.lists()[1]) queryClient.setQueryData<TaskPages>(key, trimmed);
}

/** Refetch everything on the board (after `event: reset` or an event stream opened anew). */
export async function refreshTasks(queryClient: QueryClient): Promise<void> {
  trimPages(queryClient);
  await queryClient.invalidateQueries({ queryKey: taskKeys.all });
}
