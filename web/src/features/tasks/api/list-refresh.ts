import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { SEARCHED_TASK_FIELDS } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { filterOfKey, taskKeys, trimList, type KeyFilter } from './query-keys.ts';

/*
 * Which cached lists and counts must be asked again after a task changed, and the asking.
 *
 * The server alone decides which tasks a list holds and in which order (its filter, search and
 * sort). The web never evaluates them: it only knows which task fields each part of a filter
 * reads. A change to none of those fields cannot move the task into, out of or within a list;
 * a change to any of them may, so that list is refetched. Refetches are gathered for a moment
 * (a burst of events makes one request per list), wait while this tab's own writes are under
 * way (an answer computed before them would hide them), and run only for the lists on screen;
 * the others are marked stale and asked again when shown.
 */

type Field = keyof Task;

/** Every field changed, or the previous state is unknown: everything a filter reads may differ. */
export const ANY_FIELD = 'any';
export type ChangedFields = ReadonlySet<Field> | typeof ANY_FIELD;

/** The same labels (each copy of a task from the server has its own array). */
const sameLabels = (a: Task['labels'] | undefined, b: Task['labels'] | undefined) =>
  a === b || (a?.length === b?.length && (a ?? []).every((label, i) => label._id === b?.[i]?._id));

/** The fields whose values differ between two copies of a task. */
export function changedFields(before: Task, after: Task): ChangedFields {
  const changed = new Set<Field>();
  for (const field of Object.keys(after) as Field[]) {
    if (field === 'labels' ? !sameLabels(before.labels, after.labels) : before[field] !== after[field]) changed.add(field);
  }
  return changed;
}

/** The task fields the server reads to decide membership and order of a list with this filter. */
function fieldsRead(filter: KeyFilter): Set<Field> {
  const fields = new Set<Field>(['status']);
  if (filter.priority) fields.add('priority');
  if (filter.board) fields.add('boardId');
  if (filter.column) fields.add('columnId');
  if (filter.sort === 'position') fields.add('position');
  if (filter.label) fields.add('labels');
  if (filter.view === 'assigned-to-me') fields.add('assignee');
  if (filter.view === 'created-by-me') fields.add('assignorEmail');
  if (filter.q) for (const field of SEARCHED_TASK_FIELDS) fields.add(field);
  if (filter.sort === 'priority') fields.add('priority');
  if (filter.sort === 'deadline') fields.add('deadline');
  return fields;
}

/** Whether a list (or, with `counts`, the column totals) of this filter may differ after the change. */
export function mayChange(filter: KeyFilter, changed: ChangedFields, { counts = false } = {}): boolean {
  if (changed === ANY_FIELD) return true;
  const read = fieldsRead(filter);
  // "Overdue" counts open tasks by their deadline; a board's counts are per column, in no order.
  if (counts) {
    read.add('deadline');
    if (filter.board) read.add('columnId');
    read.delete('position');
  }
  for (const field of changed) if (read.has(field)) return true;
  return false;
}

/** Whether, of the fields this filter's counts read, the change touches none but the status and column. */
export function onlyStatusRead(filter: KeyFilter, changed: ReadonlySet<Field>): boolean {
  const read = fieldsRead(filter);
  read.delete('status');
  read.delete('position');
  for (const field of changed) if (read.has(field)) return false;
  return true;
}

/** How long refetches are gathered: events of one burst arrive within a few milliseconds. */
export const REFRESH_DELAY_MS = 50;

interface RefreshQueue {
  keys: Map<string, QueryKey>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const queues = new WeakMap<QueryClient, RefreshQueue>();

function queueOf(queryClient: QueryClient): RefreshQueue {
  let queue = queues.get(queryClient);
  if (!queue) {
    const created: RefreshQueue = { keys: new Map(), timer: undefined };
    // The refetches held for this tab's writes go as soon as the last one is answered.
    queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || (event.action.type !== 'success' && event.action.type !== 'error')) return;
      if (created.keys.size > 0 && queryClient.isMutating() === 0) {
        clearTimeout(created.timer);
        flush(queryClient, created);
      }
    });
    queues.set(queryClient, created);
    queue = created;
  }
  return queue;
}

function flush(queryClient: QueryClient, queue: RefreshQueue): void {
  queue.timer = undefined;
  if (queue.keys.size === 0) return;
  // A write of this tab under way: its optimistic copy is in the cache, the server's lists do
  // not have it yet. Its answer queues its own refetches; these wait for it.
  if (queryClient.isMutating() > 0) {
    queue.timer = setTimeout(() => {
      flush(queryClient, queue);
    }, REFRESH_DELAY_MS);
    return;
  }
  const keys = [...queue.keys.values()];
  queue.keys.clear();
  for (const queryKey of keys) {
    trimList(queryClient, queryKey);
    // Refetches the list if it is on screen (and cancels a fetch of it under way, whose answer
    // may predate the change); otherwise marks it stale for when it is shown.
    void queryClient.invalidateQueries({ queryKey, exact: true });
  }
}

/** Asks the server again for this list or count, soon, together with the others of the burst. */
export function scheduleRefresh(queryClient: QueryClient, queryKey: QueryKey): void {
  const queue = queueOf(queryClient);
  queue.keys.set(hashKey(queryKey), queryKey);
  queue.timer ??= setTimeout(() => {
    flush(queryClient, queue);
  }, REFRESH_DELAY_MS);
}

/**
 * A board's labels were renamed, recoloured or deleted (its `board.updated` event): every task
 * that carries one holds a stale copy, and a list filtered by a deleted label is empty. The
 * lists and counts that may show the board's tasks, and the task pages of its tasks, are asked
 * again (after this tab's own writes, as any refetch here).
 */
export function refreshBoardTasks(queryClient: QueryClient, boardId: string): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: taskKeys.all })) {
    const key = query.queryKey;
    // A list or count of this board, or of every board ("All my tasks"); a task page of its task.
    const board = key[1] === 'detail' ? (key.length === 3 ? (query.state.data as Pick<Task, 'boardId'> | undefined)?.boardId : undefined) : (filterOfKey(key).board ?? '');
    if (board === boardId || (key[1] !== 'detail' && board === '')) scheduleRefresh(queryClient, key);
  }
}
