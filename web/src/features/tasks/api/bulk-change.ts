import { plural, t } from '@lingui/core/macro';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { BULK_TASKS_MAX, type BulkChange, type BulkConflictEnvelope, type BulkTasksEnvelope, type Task } from '#shared/schemas/tasks.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { apiRequest, isApiError } from '#web/lib/api-client.ts';
import { findCachedTask } from './cache-writes.ts';
import { taskKeys } from './query-keys.ts';
import { receiveRemoval, receiveTask } from './task-receipts.ts';
import { i18n } from '@lingui/core';

/*
 * A change of many tasks at once (POST /api/tasks/bulk): one request, all or nothing on the
 * server. Nothing is shown before the answer (the server decides what each task becomes, and
 * a refusal must leave the screen as it was); the answer's tasks are then written into the
 * caches as any answer of this tab's is. Not queued: it needs a connection.
 */

/**
 * One request's worth: the ids and the one change they all get; `versions` (parallel to
 * `taskIds`): the version each task must still be at, else the server refuses it all (409).
 */
export interface BulkRequest {
  taskIds: string[];
  change: BulkChange;
  versions?: number[];
  /** The change made, sent again to the tasks it made so: it changes nothing and only checks their versions (see `atVersions`). */
  check?: true;
}

/** "3 tasks changed", "1 task changed". */
export function changedText(count: number): string {
  return plural(count, { one: '# task changed', other: '# tasks changed' });
}

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += BULK_TASKS_MAX) out.push(ids.slice(i, i + BULK_TASKS_MAX));
  return out;
}

/** `key` → the ids that had it, in the order given (Map keeps first-seen order). */
function groupBy<K>(tasks: readonly Task[], key: (task: Task) => K): Map<K, string[]> {
  const groups = new Map<K, string[]>();
  for (const task of tasks) {
    const k = key(task);
    groups.set(k, [...(groups.get(k) ?? []), task._id]);
  }
  return groups;
}

function requests<K>(groups: Map<K, string[]>, change: (key: K) => BulkChange | null): BulkRequest[] {
  const out: BulkRequest[] = [];
  for (const [key, ids] of groups) {
    const inverse = change(key);
    if (inverse) for (const taskIds of chunks(ids)) out.push({ taskIds, change: inverse });
  }
  return out;
}

const labelIdsOf = (task: Task) => new Set(task.labels.map((label) => label._id));
const sameDeadline = (a: string | null, b: string | null) => a === b || (a !== null && b !== null && Date.parse(a) === Date.parse(b));

/**
 * The bulk changes that put back what `change` changed: each task's own previous value, one
 * request per distinct previous value (the tasks that were 'high' in one, 'low' in another),
 * split at the API's 500 ids. `before`: the tasks as they were just before the change. Tasks
 * the change left as they were are left out. Values only, not places: a task goes back to its
 * column (at its top), not to its old place in it. A deletion cannot be undone: none.
 */
export function planUndo(before: readonly Task[], change: BulkChange): BulkRequest[] {
  if ('priority' in change) {
    return requests(
      groupBy(before.filter((t) => t.priority !== change.priority), (t) => t.priority),
      (priority) => ({ priority }),
    );
  }
  if ('assignee' in change) {
    const to = change.assignee.trim().toLowerCase();
    return requests(
      groupBy(before.filter((t) => t.assignee !== to), (t) => t.assignee),
      (assignee) => ({ assignee }),
    );
  }
  if ('deadline' in change) {
    const to = change.deadline === '' ? null : change.deadline;
    return requests(
      groupBy(before.filter((t) => !sameDeadline(t.deadline, to)), (t) => t.deadline),
      (deadline) => ({ deadline }),
    );
  }
  if ('columnId' in change) {
    return requests(
      groupBy(before.filter((t) => t.columnId !== change.columnId), (t) => t.columnId),
      (columnId) => ({ columnId }),
    );
  }
  if ('status' in change) {
    // Back to the column each was in (a status change puts a task in the first column of that status).
    return requests(
      groupBy(before.filter((t) => t.status !== change.status), (t) => t.columnId),
      (columnId) => ({ columnId }),
    );
  }
  if ('addLabelIds' in change) {
    // Off again: only the labels a task did not have before.
    const added = (t: Task) => change.addLabelIds.filter((id) => !labelIdsOf(t).has(id)).sort().join(',');
    return requests(groupBy(before, added), (ids) => (ids ? { removeLabelIds: ids.split(',') } : null));
  }
  if ('removeLabelIds' in change) {
    const removed = (t: Task) => change.removeLabelIds.filter((id) => labelIdsOf(t).has(id)).sort().join(',');
    return requests(groupBy(before, removed), (ids) => (ids ? { addLabelIds: ids.split(',') } : null));
  }
  if ('boardId' in change) {
    // Labels are a board's: a task moved back comes back without them.
    return requests(
      groupBy(before.filter((t) => t.boardId !== change.boardId), (t) => t.boardId),
      (boardId) => ({ boardId }),
    );
  }
  return [];
}

/**
 * An undo plan bound to the versions the change's answer gave (`after`): each request then puts
 * back only tasks nobody changed since. A task the answer does not hold is left out. A plan of
 * more than one request (tasks with different previous values) starts with a check: `change`
 * itself sent again to all of them with their versions, which writes nothing (each task already
 * is so) but is refused if any of them changed since, so that one changed task stops the whole
 * undo before any request has put anything back.
 */
export function atVersions(plan: readonly BulkRequest[], after: readonly Task[], change: BulkChange): BulkRequest[] {
  const versions = new Map(after.map((task) => [task._id, task.version]));
  const bound = plan.flatMap((request): BulkRequest[] => {
    const known = request.taskIds.filter((id) => versions.has(id));
    return known.length === 0 ? [] : [{ taskIds: known, change: request.change, versions: known.map((id) => versions.get(id) ?? 0) }];
  });
  if (bound.length < 2) return bound;
  const check: BulkRequest = { taskIds: bound.flatMap((r) => r.taskIds), change, versions: bound.flatMap((r) => r.versions ?? []), check: true };
  return [check, ...bound];
}

/** What a whole change came to: the changed tasks, or how many were deleted. */
export interface BulkResult {
  tasks: Task[];
  deleted: number;
  /** What the server said beyond "N tasks changed": a column left over its WIP limit (never a refusal). */
  warnings: string[];
}

/**
 * Sends `change` for every id, in chunks of at most 500 (the API's limit), one after another.
 * Each chunk is its own transaction: when a later chunk is refused, the earlier ones stay done
 * (their tasks are written into the caches before the error is thrown). `onChunk` receives each
 * chunk's answer. `versions` (parallel to `taskIds`) are sent with their ids.
 */
export async function sendBulkChange(
  taskIds: readonly string[],
  change: BulkChange,
  onChunk: (answer: BulkResult, ids: readonly string[]) => void,
  versions?: readonly number[],
): Promise<BulkResult> {
  const result: BulkResult = { tasks: [], deleted: 0, warnings: [] };
  for (const [i, ids] of chunks(taskIds).entries()) {
    const expected = versions?.slice(i * BULK_TASKS_MAX, (i + 1) * BULK_TASKS_MAX);
    const body = expected === undefined ? { taskIds: ids, change } : { taskIds: ids, change, versions: expected };
    const envelope = await apiRequest<BulkTasksEnvelope>('/tasks/bulk', { method: 'POST', body });
    const answer: BulkResult = 'tasks' in envelope.data ? { tasks: envelope.data.tasks, deleted: 0, warnings: [] } : { tasks: [], deleted: envelope.data.deleted, warnings: [] };
    if (envelope.message !== i18n._(SERVER_MESSAGES.tasksChanged(answer.tasks.length + answer.deleted))) answer.warnings.push(envelope.message);
    onChunk(answer, ids);
    result.tasks.push(...answer.tasks);
    result.deleted += answer.deleted;
    result.warnings.push(...answer.warnings);
  }
  return result;
}

/** The answer of a chunk written into the caches, as the answer to a single change is. */
function receiveChunk(queryClient: QueryClient, { tasks }: BulkResult, ids: readonly string[], deleting: boolean): void {
  if (deleting) {
    for (const id of ids) receiveRemoval(queryClient, id, Number.MAX_SAFE_INTEGER);
    return;
  }
  for (const task of tasks) receiveTask(queryClient, task, { isNew: false, answer: true });
}

/**
 * Sends a bulk change and writes its answers into the caches. Resolves with the result and the
 * requests that would undo it (planned from the copies the cache held just before); rejects
 * with the server's refusal (its message names the task).
 */
export function useBulkChange() {
  const queryClient = useQueryClient();
  return async (taskIds: readonly string[], change: BulkChange): Promise<BulkResult & { undo: BulkRequest[] }> => {
    const before = taskIds.map((id) => findCachedTask(queryClient, id)).filter((task) => task !== undefined);
    const deleting = 'delete' in change;
    const result = await sendBulkChange(taskIds, change, (answer, ids) => {
      receiveChunk(queryClient, answer, ids, deleting);
    });
    return { ...result, undo: atVersions(planUndo(before, change), result.tasks, change) };
  };
}

/** What an undo came to: how many tasks were put back, and the title of the task someone changed since, when that stopped it. */
export interface UndoResult {
  putBack: number;
  changedSince?: string;
}

/** The bar's words for an undo stopped by a task someone changed since (`putBack`: the tasks earlier requests put back all the same). */
export function notUndoneText(title: string, putBack: number): string {
  if (putBack === 0) return t`Not undone: “${title}” was changed by someone else since.`;
  return t`${plural(putBack, { one: '# task changed back', other: '# tasks changed back' })}; the rest not undone: “${title}” was changed by someone else since.`;
}

/** A 409 CONFLICT of a bulk request given versions: the task at another version, by id, and as it is now (when the answer holds it). */
function conflictOf(failure: unknown): { taskId: string; task: Task | undefined } | undefined {
  if (!isApiError(failure) || failure.code !== 'CONFLICT') return undefined;
  const data = failure.data as Partial<BulkConflictEnvelope['data']> | undefined;
  return typeof data?.taskId === 'string' ? { taskId: data.taskId, task: data.task } : undefined;
}

/**
 * Sends the requests of an undo plan, one after another, each with its versions. A request
 * refused because a task changed since (409 CONFLICT) writes nothing and stops the undo: that
 * task's current copy goes into the caches, the pages of the plan's tasks are asked again, and
 * the result names it. Any other refusal rejects, except the check's (the requests that follow
 * it are refused for the same reason, by name).
 */
export function useUndoBulkChange() {
  const queryClient = useQueryClient();
  return async (plan: readonly BulkRequest[]): Promise<UndoResult> => {
    let putBack = 0;
    for (const { taskIds, change, versions, check } of plan) {
      try {
        const result = await sendBulkChange(
          taskIds,
          change,
          (answer, ids) => {
            if (!check) receiveChunk(queryClient, answer, ids, false);
          },
          versions,
        );
        if (!check) putBack += result.tasks.length;
      } catch (failure) {
        const conflict = conflictOf(failure);
        if (conflict === undefined && check) continue;
        if (conflict === undefined) throw failure;
        const title = conflict.task?.taskTitle ?? findCachedTask(queryClient, conflict.taskId)?.taskTitle ?? t`A task`;
        if (conflict.task !== undefined) receiveTask(queryClient, conflict.task, { isNew: false });
        for (const id of new Set(plan.flatMap((request) => request.taskIds))) void queryClient.invalidateQueries({ queryKey: taskKeys.detail(id) });
        return { putBack, changedSince: title };
      }
    }
    return { putBack };
  };
}
