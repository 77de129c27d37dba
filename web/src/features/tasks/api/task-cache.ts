import type { QueryClient } from '@tanstack/react-query';
import { PRIORITY_FILTER_ORDER, type TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { taskKeys, type TaskPage, type TaskPages } from './query-keys.ts';
import type { TaskCounts } from './task-queries.ts';

/*
 * How board data flows — the one way task data reaches the screen:
 *
 * 1. Fetch. The board's query hooks (`useTaskColumn` per status and filter, `useTaskCounts`
 *    per filter) are the only code that asks `/api/tasks` and `/api/tasks/counts`, with the
 *    same query options (task-queries.ts) whoever starts them: a filter change starts the new
 *    filter's three at the click, before the board renders it (task-board.tsx). They mount
 *    only under a session that `/users/me` has confirmed (`RequireAuth` waits for it), and fetch
 *    a list the first time it is shown. While the live event stream is open a cached list
 *    counts as fresh (every change reaches it, see 2); without the stream it is stale at once,
 *    so showing it again (a filter change, a remount) asks the server again.
 * 2. Keep current. This module is the only writer of cached lists and counts after a fetch.
 *    Two sources feed it: this tab's own changes (applied at once, optimistically, then the
 *    server's answer; rolled back on failure — see the mutation hooks) and the live events of
 *    everyone else (`live-events.ts`). Versions decide: an older copy of a task never replaces a
 *    newer one.
 * 3. Refetch only when the cache cannot be right: `event: reset`, a stream that had to be
 *    opened anew (events may have been missed), or a change whose previous state is unknown
 *    here (the counts of a task that was never loaded).
 *
 * There is no preloading of filters nobody chose, and no refetch after each change.
 */

/** Who is looking at the board: decides the "assigned to me" / "created by me" views. */
export interface Viewer {
  fullName: string;
  email: string;
}

/** The part of a list's or count's query key that says what it holds. */
interface KeyFilter {
  status?: TaskStatus;
  priority?: string;
  view?: string;
  q?: string;
  sort?: string;
}

/** A task's version (the server counts every change; 0 for a task not yet saved). */
export const versionOf = (task: Task): number => task.version;

/** Ids of tasks shown before the server has answered their creation. */
const PENDING_PREFIX = 'pending-';
let pendingSequence = 0;
export const newPendingId = (): string => `${PENDING_PREFIX}${++pendingSequence}`;
export const isPendingTask = (task: Task): boolean => task._id.startsWith(PENDING_PREFIX);

const filterOf = (key: readonly unknown[]): KeyFilter => {
  const filter: KeyFilter = key[2] ?? {};
  return filter;
};

/** Whether `task` is one of the tasks a list with this filter holds (status aside when absent). */
function belongs(task: Task, filter: KeyFilter, viewer: Viewer): boolean {
  if (filter.status && task.status !== filter.status) return false;
  if (filter.priority && task.priority !== filter.priority) return false;
  if (filter.view === 'assigned-to-me' && task.assignee !== viewer.email) return false;
  if (filter.view === 'created-by-me' && task.assignorEmail !== viewer.email) return false;
  if (filter.q) {
    const needle = filter.q.toLowerCase();
    if (![task.taskTitle, task.workTitle, task.description, task.assignee].some((text) => text.toLowerCase().includes(needle))) return false;
  }
  return true;
}

type Compare = (a: Task, b: Task) => number;

/** The server's order: newest first, ties by id (descending), as the keyset pages are cut. */
const newestFirst: Compare = (a, b) =>
  a.createdAt === b.createdAt ? (a._id === b._id ? 0 : a._id < b._id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

const priorityRank = (task: Task) => PRIORITY_FILTER_ORDER.indexOf(task.priority);

function compareFor(sort: string | undefined): Compare {
  if (sort === 'priority') return (a, b) => priorityRank(a) - priorityRank(b) || newestFirst(a, b);
  if (sort === 'deadline') {
    return (a, b) => {
      if (a.deadline === b.deadline) return newestFirst(a, b);
      if (a.deadline === null) return 1;
      if (b.deadline === null) return -1;
      return a.deadline < b.deadline ? -1 : 1;
    };
  }
  return newestFirst;
}

function without(data: TaskPages, id: string): TaskPages {
  if (!data.pages.some((page) => page.tasks.some((t) => t._id === id))) return data;
  return { ...data, pages: data.pages.map((page) => (page.tasks.some((t) => t._id === id) ? { ...page, tasks: page.tasks.filter((t) => t._id !== id) } : page)) };
}

/** Replaces the copy of `task` where it is, if its order still holds there. */
function replacedInPlace(data: TaskPages, task: Task, compare: Compare): TaskPages | null {
  const flat = data.pages.flatMap((page) => page.tasks);
  const index = flat.findIndex((t) => t._id === task._id);
  if (index < 0) return null;
  const before = flat[index - 1];
  const after = flat[index + 1];
  if ((before && compare(before, task) > 0) || (after && compare(task, after) > 0)) return null;
  return { ...data, pages: data.pages.map((page) => ({ ...page, tasks: page.tasks.map((t) => (t._id === task._id ? task : t)) })) };
}

/**
 * Puts `task` where the server would list it. Past the last loaded card, while more pages
 * exist, it is left out: the next page brings it.
 */
function placed(data: TaskPages, task: Task, compare: Compare): TaskPages {
  const pages: TaskPage[] = [...data.pages];
  for (const [pageIndex, page] of pages.entries()) {
    const at = page.tasks.findIndex((t) => compare(task, t) < 0);
    if (at >= 0) {
      pages[pageIndex] = { ...page, tasks: [...page.tasks.slice(0, at), task, ...page.tasks.slice(at)] };
      return { ...data, pages };
    }
  }
  const last = pages.at(-1);
  if (last?.nextCursor !== null) return data;
  pages[pages.length - 1] = { ...last, tasks: [...last.tasks, task] };
  return { ...data, pages };
}

function patchList(data: TaskPages, filter: KeyFilter, before: Task | null | undefined, after: Task | null, viewer: Viewer): TaskPages {
  const compare = compareFor(filter.sort);
  const wanted = after && belongs(after, filter, viewer) ? after : null;
  if (wanted && (!before || before._id === wanted._id)) {
    const inPlace = replacedInPlace(data, wanted, compare);
    if (inPlace) return inPlace;
  }
  let next = data;
  if (before) next = without(next, before._id);
  if (after) next = without(next, after._id);
  return wanted ? placed(next, wanted, compare) : next;
}

const isOverdue = (task: Task, now: number) => task.status === 'todo' && task.deadline !== null && Date.parse(task.deadline) < now;

function contribution(task: Task | null, filter: KeyFilter, viewer: Viewer, now: number): Required<TaskCounts> {
  const counts = { todo: 0, done: 0, overdue: 0 };
  if (task && belongs(task, { ...filter, status: undefined }, viewer)) {
    counts[task.status] = 1;
    if (isOverdue(task, now)) counts.overdue = 1;
  }
  return counts;
}

/**
 * Writes a change of one task into every cached list and count: `before` is the copy the cache
 * held (`null`: the task is new to this board; `undefined`: its previous state is unknown, so
 * the counts are asked again), `after` the new copy (`null`: it is gone).
 */
export function writeTask(queryClient: QueryClient, before: Task | null | undefined, after: Task | null, viewer: Viewer): void {
  // The task page's copy: replaced; once gone, asked again (it then says "Task not found").
  const id = (after ?? before)?._id;
  if (id !== undefined && queryClient.getQueryData(taskKeys.detail(id)) !== undefined) {
    if (after) queryClient.setQueryData<Task>(taskKeys.detail(id), after);
    else void queryClient.invalidateQueries({ queryKey: taskKeys.detail(id), exact: true });
  }
  for (const [key, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    if (!data) continue;
    const next = patchList(data, filterOf(key), before, after, viewer);
    if (next !== data) queryClient.setQueryData<TaskPages>(key, next);
  }
  const countsKey = [...taskKeys.all, 'counts'];
  if (before === undefined) {
    void queryClient.invalidateQueries({ queryKey: countsKey });
    return;
  }
  const now = Date.now();
  for (const [key, data] of queryClient.getQueriesData<TaskCounts>({ queryKey: countsKey })) {
    if (!data) continue;
    const filter = filterOf(key);
    const old = contribution(before, filter, viewer, now);
    const neu = contribution(after, filter, viewer, now);
    const delta = { todo: neu.todo - old.todo, done: neu.done - old.done, overdue: neu.overdue - old.overdue };
    if (delta.todo === 0 && delta.done === 0 && delta.overdue === 0) continue;
    const next: TaskCounts = { ...data, todo: Math.max(0, data.todo + delta.todo), done: Math.max(0, data.done + delta.done) };
    if (data.overdue !== undefined) next.overdue = Math.max(0, data.overdue + delta.overdue);
    queryClient.setQueryData<TaskCounts>(key, next);
  }
}

/** The newest copy of a task in any cached list or on its task page, if one holds it. */
export function findCachedTask(queryClient: QueryClient, id: string): Task | undefined {
  let found = queryClient.getQueryData<Task>(taskKeys.detail(id));
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      for (const task of page.tasks) if (task._id === id && (!found || versionOf(task) > versionOf(found))) found = task;
    }
  }
  return found;
}

/** A stand-in card of this tab's create that `task` is the saved form of. */
function pendingTwin(queryClient: QueryClient, task: Task): Task | undefined {
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const twin = page.tasks.find(
        (t) => isPendingTask(t) && t.taskTitle === task.taskTitle && t.assignee === task.assignee && t.assignorEmail === task.assignorEmail,
      );
      if (twin) return twin;
    }
  }
  return undefined;
}

/**
 * Ids of tasks this board saw removed, with the version they were removed at: the removal
 * echoed back by the event stream then changes nothing, and a late copy does not resurrect it.
 */
const removedByClient = new WeakMap<QueryClient, Map<string, number>>();
function removedIds(queryClient: QueryClient): Map<string, number> {
  let ids = removedByClient.get(queryClient);
  if (!ids) {
    ids = new Map();
    removedByClient.set(queryClient, ids);
  }
  return ids;
}

/**
 * A copy of a task from the server (an answer or an event). Ignored when the cache already
 * holds this version or a newer one (`answer`: a newer one). `isNew`: the task has just become visible (created, or
 * assigned to the viewer), so a board that never held it counts it in. Returns the copy it
 * replaced (`null` if none), or `false` when it was ignored.
 */
export function receiveTask(
  queryClient: QueryClient,
  task: Task,
  viewer: Viewer,
  { isNew, answer = false }: { isNew: boolean; answer?: boolean },
): Task | null | false {
  const cached = findCachedTask(queryClient, task._id);
  // The answer to this tab's own write also replaces a copy of the same version: that may be
  // the optimistic one, which only guessed what the server would store.
  if (cached && (answer ? versionOf(cached) > versionOf(task) : versionOf(cached) >= versionOf(task))) return false;
  const removedAt = removedIds(queryClient).get(task._id);
  if (!cached && removedAt !== undefined && removedAt >= versionOf(task)) return false;
  removedIds(queryClient).delete(task._id);
  // This tab's own create, echoed by the stream before the answer came: it takes the place of
  // the stand-in card instead of showing twice.
  const standIn = !cached && isNew ? pendingTwin(queryClient, task) : undefined;
  writeTask(queryClient, cached ?? standIn ?? (isNew ? null : undefined), task, viewer);
  return cached ?? null;
}

/**
 * A task is gone from this board (deleted, or no longer visible) at `version`. Ignored when the
 * cache holds a newer copy. Returns the copy it removed (`null` if none held it), or `false`.
 */
export function receiveRemoval(queryClient: QueryClient, id: string, version: number, viewer: Viewer): Task | null | false {
  const cached = findCachedTask(queryClient, id);
  if (cached && versionOf(cached) > version) return false;
  const removed = removedIds(queryClient);
  if (!cached && removed.has(id)) return false;
  removed.set(id, version);
  writeTask(queryClient, cached ?? undefined, null, viewer);
  return cached ?? null;
}

/** This tab removes a task before the server has answered (optimistic delete). */
export function removeOptimistically(queryClient: QueryClient, task: Task, viewer: Viewer): void {
  removedIds(queryClient).set(task._id, versionOf(task));
  writeTask(queryClient, task, null, viewer);
}

/** Undoes `removeOptimistically` after a failure, unless someone else changed the task since. */
export function restoreRemoved(queryClient: QueryClient, task: Task, viewer: Viewer): void {
  const removed = removedIds(queryClient);
  if (removed.get(task._id) !== versionOf(task) || findCachedTask(queryClient, task._id)) return;
  removed.delete(task._id);
  writeTask(queryClient, null, task, viewer);
}

/**
 * Stops list fetches under way before an optimistic write, so an answer computed before the
 * change cannot overwrite it. Only lists that already show cards: a first load keeps going.
 */
export async function cancelListFetches(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: taskKeys.all, predicate: (query) => query.state.data !== undefined });
}

/**
 * Versions this tab's own saves moved a task through (from → to), so a second change queued
 * behind the first carries the version the first one produced: the client's own change is
 * not a conflict with itself.
 */
const ownSteps = new WeakMap<QueryClient, Map<string, Map<number, number>>>();

export function recordOwnChange(queryClient: QueryClient, id: string, from: number, to: number): void {
  let byTask = ownSteps.get(queryClient);
  if (!byTask) {
    byTask = new Map();
    ownSteps.set(queryClient, byTask);
  }
  const steps = byTask.get(id) ?? new Map<number, number>();
  steps.set(from, to);
  byTask.set(id, steps);
}

/** The version to send for a change based on `task`: its own, moved on past this tab's own saves. */
export function versionToSend(queryClient: QueryClient, task: Task): number {
  const steps = ownSteps.get(queryClient)?.get(task._id);
  let version = versionOf(task);
  for (let next = steps?.get(version); next !== undefined && next > version; next = steps?.get(version)) version = next;
  return version;
}
