import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Task, TaskListEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { filterQuery, type BoardFilter } from './board-filter.ts';
import { useBoardStaleTime } from './live-board-context.ts';
import { mayChange, scheduleRefresh, type ChangedFields } from './list-refresh.ts';
import { isPendingTask } from './pending-tasks.ts';
import { taskKeys, type KeyFilter } from './query-keys.ts';

/*
 * Every task of a filter, both statuses, in one list: what the table, calendar and timeline
 * views show (the board reads a column at a time instead). Read in pages, a small first one and
 * then VIEW_PAGE_SIZE, up to VIEW_TASKS_MAX; past that the view says it shows the first ones of
 * the filter's order. The first page shows as soon as it arrives and the others join it as they
 * come (`complete` says when the last has); a list already cached keeps showing until the new one
 * is whole (readViewTasks).
 * The cache writer (cache-writes.ts) keeps these lists current: a changed task is replaced in
 * place, a removed one taken out, and a list a new or changed task may join is asked again.
 */

/** Tasks per request of a view's list (the API's largest page). */
export const VIEW_PAGE_SIZE = 500;
/** Tasks in the first request: a screen's worth and more, so the view shows before the rest is read. */
export const VIEW_FIRST_PAGE_SIZE = 100;
/** The most tasks a view reads. */
export const VIEW_TASKS_MAX = 5_000;

export interface ViewTasks {
  tasks: Task[];
  /** More tasks match the filter than VIEW_TASKS_MAX: the view shows the first ones. */
  truncated: boolean;
  /** Every page is in: false while the later pages of a first read are still coming. */
  complete: boolean;
}

const NO_TASKS: ViewTasks = { tasks: [], truncated: false, complete: false };

export const viewKeys = {
  all: () => [...taskKeys.all, 'view'] as const,
  list: (filter: BoardFilter) => [...viewKeys.all(), { ...filter }] as const,
};

/** The filter's tasks a page at a time, each page with whether it is the last. */
async function* viewPages(filter: BoardFilter, signal: AbortSignal): AsyncGenerator<ViewTasks> {
  const query = filterQuery(filter);
  // Manual order is a column's; a view spanning columns reads the filter in its newest order.
  const sort = filter.sort === 'position' ? undefined : query.sort;
  let cursor: string | null = null;
  let read = 0;
  for (;;) {
    const envelope: TaskListEnvelope = await apiRequest<TaskListEnvelope>('/tasks', { query: { ...query, sort, limit: read === 0 ? VIEW_FIRST_PAGE_SIZE : VIEW_PAGE_SIZE, cursor }, signal });
    const page = envelope.data.tasks.slice(0, VIEW_TASKS_MAX - read);
    read += page.length;
    cursor = envelope.data.nextCursor ?? null;
    const truncated = cursor !== null && read >= VIEW_TASKS_MAX;
    yield { tasks: page, truncated, complete: cursor === null || truncated };
    if (cursor === null || truncated) return;
  }
}

/**
 * Reads the filter's list. A first read (nothing cached) shows each page as it comes: the first
 * is written as it is, each later one appended to what the cache holds by then (which the cache
 * writer may have changed meanwhile). A list already cached — read before, or from the device's
 * copy — stays as it is until the new one is whole, then is replaced by it; never appended to,
 * which would show its tasks twice.
 */
async function readViewTasks(filter: BoardFilter, client: QueryClient, queryKey: ReturnType<typeof viewKeys.list>, signal: AbortSignal): Promise<ViewTasks> {
  const streaming = client.getQueryData<ViewTasks>(queryKey) === undefined;
  let whole: ViewTasks = NO_TASKS;
  let first = true;
  for await (const page of viewPages(filter, signal)) {
    whole = { tasks: [...whole.tasks, ...page.tasks], truncated: page.truncated, complete: page.complete };
    if (streaming) {
      const shown = first ? undefined : client.getQueryData<ViewTasks>(queryKey);
      client.setQueryData<ViewTasks>(queryKey, shown === undefined ? page : { tasks: [...shown.tasks, ...page.tasks], truncated: page.truncated, complete: page.complete });
      first = false;
    }
  }
  return streaming ? (client.getQueryData<ViewTasks>(queryKey) ?? whole) : whole;
}

export const viewTasksQueryOptions = (filter: BoardFilter, staleTime: number) =>
  queryOptions({
    queryKey: viewKeys.list(filter),
    queryFn: ({ client, queryKey, signal }) => readViewTasks(filter, client, queryKey, signal),
    staleTime,
  });

/** Every task of `filter` (both statuses), kept current by live events and this tab's own changes. */
export function useViewTasks(filter: BoardFilter) {
  return useQuery(viewTasksQueryOptions(filter, useBoardStaleTime()));
}

/**
 * Writes a task's new copy (`after`; null: gone) into every cached view list: replaced where it
 * is, removed when gone. A list that did not hold it (a new task may belong), or whose filter may
 * hold other tasks after the change (`changed`: the fields that changed, as list-refresh.ts reads
 * them), is asked again: the server decides what a filter holds. `serverChanged`: false for a
 * stand-in, which only this tab knows.
 */
export function writeViewLists(queryClient: QueryClient, id: string, before: Task | null, after: Task | null, changed: ChangedFields, serverChanged: boolean): void {
  // The saved form of a stand-in has another id: the stand-in goes where the saved task comes.
  const replacing = before !== null && after !== null && before._id !== after._id ? before._id : null;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: viewKeys.all() })) {
    const data = query.state.data as ViewTasks | undefined;
    if (data === undefined) {
      if (serverChanged && query.state.fetchStatus === 'fetching') scheduleRefresh(queryClient, query.queryKey);
      continue;
    }
    const standIn = replacing === null ? -1 : data.tasks.findIndex((task) => task._id === replacing);
    const i = standIn >= 0 ? standIn : data.tasks.findIndex((task) => task._id === id);
    if (after === null) {
      if (i >= 0) queryClient.setQueryData<ViewTasks>(query.queryKey, { ...data, tasks: data.tasks.toSpliced(i, 1) });
      continue;
    }
    if (i >= 0) queryClient.setQueryData<ViewTasks>(query.queryKey, { ...data, tasks: data.tasks.with(i, after) });
    else if (isPendingTask(after)) queryClient.setQueryData<ViewTasks>(query.queryKey, { ...data, tasks: [after, ...data.tasks] });
    const filter = (query.queryKey[3] ?? {}) as KeyFilter;
    if (serverChanged && (i < 0 || mayChange(filter, changed))) scheduleRefresh(queryClient, query.queryKey);
  }
}

/** The newest copy of a task in a cached view list, if one holds it. */
export function findViewTask(queryClient: QueryClient, id: string): Task | undefined {
  let found: Task | undefined;
  for (const [, data] of queryClient.getQueriesData<ViewTasks>({ queryKey: viewKeys.all() })) {
    for (const task of data?.tasks ?? []) if (task._id === id && (!found || task.version > found.version)) found = task;
  }
  return found;
}
