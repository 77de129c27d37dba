import { onlineManager, type QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';
import { writeCounts } from './count-writes.ts';
import { ANY_FIELD, changedFields, mayChange, scheduleRefresh, type ChangedFields } from './list-refresh.ts';
import { isPendingTask } from './pending-tasks.ts';
import { filterOfKey, membershipOf, taskKeys, type KeyFilter, type TaskPages } from './query-keys.ts';
import { findViewTask, writeViewLists } from './view-tasks.ts';

/*
 * The one writer of a task's copies in the cache after a fetch: the task page's copy, and the
 * card in every cached list that holds it. A card is changed where it is; one whose status left
 * its column goes. Where the task belongs and in which order is the server's answer: the lists
 * whose membership or order the change may affect are asked again (list-refresh.ts).
 */

const holds = (data: TaskPages, id: string) => data.pages.some((page) => page.tasks.some((t) => t._id === id));

function without(data: TaskPages, id: string): TaskPages {
  if (!holds(data, id)) return data;
  return { ...data, pages: data.pages.map((page) => (page.tasks.some((t) => t._id === id) ? { ...page, tasks: page.tasks.filter((t) => t._id !== id) } : page)) };
}

/** `task` in the place of the card `id` (a stand-in's place goes to its saved task); null if no card. */
function replacedInPlace(data: TaskPages, id: string, task: Task): TaskPages | null {
  if (!holds(data, id)) return null;
  const rest = id === task._id ? data : without(data, task._id);
  return { ...rest, pages: rest.pages.map((page) => ({ ...page, tasks: page.tasks.map((t) => (t._id === id ? task : t)) })) };
}

/** A stand-in card goes first in its column until the server's answer says where it belongs. */
function withFirst(data: TaskPages, task: Task): TaskPages {
  const [first, ...rest] = data.pages;
  return first ? { ...data, pages: [{ ...first, tasks: [task, ...first.tasks] }, ...rest] } : data;
}

/**
 * `task` directly below the card `afterId` (null: at the top), taken from wherever it was; null
 * when `afterId` is not among the loaded cards (the server's answer will place it).
 */
function placedAfter(data: TaskPages, task: Task, afterId: string | null): TaskPages | null {
  const rest = without(data, task._id);
  if (afterId === null) return withFirst(rest, task);
  if (!holds(rest, afterId)) return null;
  return { ...rest, pages: rest.pages.map((page) => ({ ...page, tasks: page.tasks.flatMap((t) => (t._id === afterId ? [t, task] : [t])) })) };
}

/** Where a move (this tab's own, before the answer) puts the task: directly below `afterId`. */
export interface Placement {
  afterId: string | null;
}

function nextList(data: TaskPages, filter: KeyFilter, id: string, before: Task | null, after: Task | null, heldBy: ReadonlySet<string>, place?: Placement): TaskPages {
  // A board's list holds only that board's tasks (a column's list only that column's): a task
  // on another board (moved, or a stand-in created there) is certainly not in it.
  const belongs =
    after !== null &&
    after.status === filter.status &&
    (!filter.board || after.boardId === filter.board) &&
    (!filter.column || after.columnId === filter.column);
  // A move shows at once where it was dropped, in a list in the column's own order.
  if (after && belongs && place && filter.sort === 'position') {
    const placed = placedAfter(data, after, place.afterId);
    if (placed) return placed;
  }
  if (after && belongs) {
    const inPlace = replacedInPlace(data, before?._id ?? after._id, after);
    if (inPlace) return inPlace;
    if (!before && isPendingTask(after)) return withFirst(data, after);
    // A task that changed status offline (completed, reopened): no refresh can place it until
    // the network returns, so it goes first in the other column of the same filter, which held
    // it, rather than vanish from both.
    const twinHeldIt = before !== null && (before.status !== after.status || before.columnId !== after.columnId) && heldBy.has(membershipOf(filter));
    return twinHeldIt && !onlineManager.isOnline() ? withFirst(data, after) : data;
  }
  const next = without(data, id);
  return before && before._id !== id ? without(next, before._id) : next;
}

/**
 * Writes a change of one task into the cache: `before` is the copy the cache held (`null`: none,
 * the task is new here or its previous state unknown), `after` the new copy (`null`: it is gone).
 */
export function writeTask(queryClient: QueryClient, before: Task | null, after: Task | null, place?: Placement): void {
  const id = (after ?? before)?._id;
  if (id !== undefined) write(queryClient, id, before, after, place);
}

/** Task `id` is gone; `before` is the copy the cache held, if any. */
export function writeRemoval(queryClient: QueryClient, id: string, before: Task | null): void {
  write(queryClient, id, before, null);
}

function write(queryClient: QueryClient, id: string, before: Task | null, after: Task | null, place?: Placement): void {
  // The task page's copy: replaced; once gone, asked again (it then says "Task not found").
  if (queryClient.getQueryData(taskKeys.detail(id)) !== undefined) {
    if (after) queryClient.setQueryData<Task>(taskKeys.detail(id), after);
    else void queryClient.invalidateQueries({ queryKey: taskKeys.detail(id), exact: true });
  }
  // A stand-in exists only here: the server's lists and counts know nothing of it.
  const serverChanged = after ? !isPendingTask(after) : before === null || !isPendingTask(before);
  const changed: ChangedFields = after === null || before === null || isPendingTask(before) ? ANY_FIELD : changedFields(before, after);

  // The filters (status aside) whose lists held the task: the server said it belongs to them.
  const lists = queryClient.getQueryCache().findAll({ queryKey: taskKeys.lists() });
  const heldBy = new Set<string>();
  for (const query of lists) {
    const data = query.state.data as TaskPages | undefined;
    if (before && data !== undefined && holds(data, before._id)) heldBy.add(membershipOf(filterOfKey(query.queryKey)));
  }
  for (const query of lists) {
    const filter = filterOfKey(query.queryKey);
    const data = query.state.data as TaskPages | undefined;
    if (data === undefined) {
      // A first load under way may answer from before this change.
      if (serverChanged && query.state.fetchStatus === 'fetching') scheduleRefresh(queryClient, query.queryKey);
      continue;
    }
    const next = nextList(data, filter, id, before, after, heldBy, place);
    if (next !== data) queryClient.setQueryData<TaskPages>(query.queryKey, next);
    if (serverChanged && after?.status === filter.status && mayChange(filter, changed)) scheduleRefresh(queryClient, query.queryKey);
  }
  if (serverChanged) writeCounts(queryClient, before, after, changed, heldBy);
  writeViewLists(queryClient, id, before, after, changed, serverChanged);
}

/** The newest copy of a task in any cached list or on its task page, if one holds it. */
export function findCachedTask(queryClient: QueryClient, id: string): Task | undefined {
  let found = queryClient.getQueryData<Task>(taskKeys.detail(id));
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      for (const task of page.tasks) if (task._id === id && (!found || task.version > found.version)) found = task;
    }
  }
  const inView = findViewTask(queryClient, id);
  return inView && (!found || inView.version > found.version) ? inView : found;
}

/**
 * Stops fetches under way before an optimistic write, so an answer computed before the change
 * cannot overwrite it; they are asked again once the write is done. Only queries that already
 * show data: a first load keeps going.
 */
export async function cancelListFetches(queryClient: QueryClient): Promise<void> {
  const shown = (query: { state: { data: unknown } }) => query.state.data !== undefined;
  const fetching = queryClient.getQueryCache().findAll({ queryKey: taskKeys.all, fetchStatus: 'fetching', predicate: shown });
  await queryClient.cancelQueries({ queryKey: taskKeys.all, predicate: shown });
  for (const query of fetching) scheduleRefresh(queryClient, query.queryKey);
}
