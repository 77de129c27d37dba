import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';
import { findCachedTask, writeRemoval, writeTask } from './cache-writes.ts';
import { pendingTwin } from './pending-tasks.ts';

/*
 * Copies of tasks arriving from the server (answers and live events) and this tab's own
 * removals. Versions decide: an older copy of a task never replaces a newer one.
 */

/**
 * The newest version of each task this tab has received, and whether it was a removal. A task
 * need not be on screen to be known (the server decides which lists show it): a replayed or late
 * event of it then changes nothing, and a removed task is not brought back by a late copy.
 * Kept per query client (one per tab).
 */
type Seen = Map<string, { version: number; removed: boolean }>;
const seenByClient = new WeakMap<QueryClient, Seen>();
function seenOf(queryClient: QueryClient): Seen {
  let seen = seenByClient.get(queryClient);
  if (!seen) {
    seen = new Map();
    seenByClient.set(queryClient, seen);
  }
  return seen;
}

/** The newest version of the task this tab knows of (-1: none). */
function newestKnown(queryClient: QueryClient, id: string, cached: Task | undefined): number {
  return Math.max(cached?.version ?? -1, seenOf(queryClient).get(id)?.version ?? -1);
}

/**
 * A copy of a task from the server (an answer or an event). Ignored when this tab already knows
 * this version or a newer one (`answer`: a newer one). `isNew`: the task has just become visible
 * (created, or assigned to the viewer), so it may be this tab's own create echoed back;
 * `standIn`: the stand-in card it is the saved form of, when the caller knows it.
 * Returns the copy it replaced (`null` if none), or `false` when it was ignored.
 */
export function receiveTask(
  queryClient: QueryClient,
  task: Task,
  { isNew, answer = false, standIn }: { isNew: boolean; answer?: boolean; standIn?: Task | undefined },
): Task | null | false {
  const cached = findCachedTask(queryClient, task._id);
  const known = newestKnown(queryClient, task._id, cached);
  // The answer to this tab's own write also replaces a copy of the same version: that may be
  // the optimistic one, which only guessed what the server would store.
  if (answer ? known > task.version : known >= task.version) return false;
  seenOf(queryClient).set(task._id, { version: task.version, removed: false });
  // This tab's own create, echoed by the stream before the answer came: it takes the place of
  // the stand-in card instead of showing twice.
  const replaced = cached ?? standIn ?? (isNew ? pendingTwin(queryClient, task) : undefined);
  writeTask(queryClient, replaced ?? null, task);
  return cached ?? null;
}

/**
 * A task is gone from this board (deleted, or no longer visible) at `version`. Ignored when this
 * tab knows a newer copy or the removal already. Returns the copy it removed (`null` if none
 * held it), or `false`.
 */
export function receiveRemoval(queryClient: QueryClient, id: string, version: number): Task | null | false {
  const cached = findCachedTask(queryClient, id);
  const seen = seenOf(queryClient).get(id);
  if (newestKnown(queryClient, id, cached) > version || (!cached && seen?.removed)) return false;
  seenOf(queryClient).set(id, { version, removed: true });
  writeRemoval(queryClient, id, cached ?? null);
  return cached ?? null;
}

/** This tab removes a task before the server has answered (optimistic delete). */
export function removeOptimistically(queryClient: QueryClient, task: Task): void {
  seenOf(queryClient).set(task._id, { version: task.version, removed: true });
  writeTask(queryClient, task, null);
}

/** Undoes `removeOptimistically` after a failure, unless someone else changed the task since. */
export function restoreRemoved(queryClient: QueryClient, task: Task): void {
  const seen = seenOf(queryClient).get(task._id);
  if (!seen?.removed || seen.version !== task.version || findCachedTask(queryClient, task._id)) return;
  seenOf(queryClient).set(task._id, { version: task.version, removed: false });
  writeTask(queryClient, null, task);
}
