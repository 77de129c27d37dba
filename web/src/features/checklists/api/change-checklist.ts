import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient, type MutateOptions, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import type { ChecklistItem, ChecklistItemEnvelope } from '#shared/schemas/checklist.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { apiRequest, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { markMadeHere, newStandInId, QUEUED_WRITE_OPTIONS, queueNotices, sendDelete } from '#web/lib/write-queue.ts';
import { checklistKeys, checklistPath } from './get-checklist.ts';

/** One change of a checklist, as the person made it. */
export type ChecklistChange =
  | { kind: 'add'; text: string; tempId: string }
  | { kind: 'update'; itemId: string; text?: string; done?: boolean; position?: number }
  | { kind: 'delete'; itemId: string }
  /** Undo of a delete: the item comes back with its text, tick and place (a new item to the server). */
  | { kind: 'restore'; text: string; done: boolean; position: number; tempId: string };

/** The answers of one change: the item it left (none for a delete) and each task version it made. */
interface Answer {
  item: ChecklistItem | null;
  tasks: Task[];
}

/** Items not yet saved carry an id of this device's own (random: unique across reloads) until the answer gives theirs. */
const PENDING_PREFIX = 'pending-';
export const newPendingId = () => newStandInId(PENDING_PREFIX);
export const isPendingItem = (item: ChecklistItem) => item._id.startsWith(PENDING_PREFIX);

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** The list as the change leaves it (what is shown at once). */
export function applyChange(items: readonly ChecklistItem[], change: ChecklistChange): ChecklistItem[] {
  switch (change.kind) {
    case 'add':
      return [...items, { _id: change.tempId, text: change.text, done: false }];
    case 'restore': {
      const next = [...items];
      next.splice(Math.min(change.position, next.length), 0, { _id: change.tempId, text: change.text, done: change.done });
      return next;
    }
    case 'delete':
      return items.filter((item) => item._id !== change.itemId);
    case 'update': {
      const index = items.findIndex((item) => item._id === change.itemId);
      if (index < 0) return [...items];
      const next = items.map((item, i) =>
        i === index ? { ...item, ...(change.text === undefined ? {} : { text: change.text }), ...(change.done === undefined ? {} : { done: change.done }) } : item,
      );
      return change.position === undefined ? next : moved(next, index, change.position);
    }
  }
}

/**
 * Takes back one failed change from the list as it is now, leaving other changes made since
 * (still on their way, or arrived) as they are: `before` is the item as it was and `index` its place.
 */
function revertChange(items: readonly ChecklistItem[], change: ChecklistChange, before: ChecklistItem | undefined, index: number): ChecklistItem[] {
  switch (change.kind) {
    case 'add':
    case 'restore':
      return items.filter((item) => item._id !== change.tempId);
    case 'delete': {
      if (!before || items.some((item) => item._id === before._id)) return [...items];
      const next = [...items];
      next.splice(Math.min(index, next.length), 0, before);
      return next;
    }
    case 'update': {
      const at = items.findIndex((item) => item._id === change.itemId);
      if (!before || at < 0) return [...items];
      const next = items.map((item, i) => (i === at ? { ...item, text: change.text === undefined ? item.text : before.text, done: change.done === undefined ? item.done : before.done } : item));
      return change.position === undefined ? next : moved(next, at, index);
    }
  }
}

async function send(taskId: string, change: ChecklistChange): Promise<Answer> {
  switch (change.kind) {
    case 'add': {
      // The stand-in id, made with the change, is its Idempotency-Key: a try sent again after a
      // lost answer (or a reload) adds nothing twice.
      const added = await apiRequest<ChecklistItemEnvelope>(checklistPath(taskId), { method: 'POST', body: { text: change.text }, idempotencyKey: change.tempId });
      return { item: added.data.item, tasks: [added.data.task] };
    }
    case 'restore': {
      // Appended by the server; then put back in its place with its tick, if it had either.
      const added = await apiRequest<ChecklistItemEnvelope>(checklistPath(taskId), { method: 'POST', body: { text: change.text }, idempotencyKey: change.tempId });
      const last = added.data.task.checklist.total - 1;
      const body = { ...(change.position < last ? { position: change.position } : {}), ...(change.done ? { done: true } : {}) };
      if (Object.keys(body).length === 0) return { item: added.data.item, tasks: [added.data.task] };
      const placed = await apiRequest<ChecklistItemEnvelope>(checklistPath(taskId, added.data.item._id), { method: 'PATCH', body });
      return { item: placed.data.item, tasks: [added.data.task, placed.data.task] };
    }
    case 'update': {
      const { kind: _kind, itemId, ...body } = change;
      const updated = await apiRequest<ChecklistItemEnvelope>(checklistPath(taskId, itemId), { method: 'PATCH', body });
      return { item: updated.data.item, tasks: [updated.data.task] };
    }
    case 'delete':
      // 204: the new task version arrives with the live event.
      await sendDelete(change, () => apiRequest(checklistPath(taskId, change.itemId), { method: 'DELETE', expectNoContent: true }));
      return { item: null, tasks: [] };
  }
}

/*
 * Keeping an open checklist current. Every checklist change makes a new version of its task,
 * and the task page's copy of the task follows every change (this tab's answers and everyone's
 * live events). A version this tab's own answers did not make means someone else changed the
 * task (maybe its checklist): the list is asked again. While this tab's own changes are on
 * their way it is not — the answer would not hold them yet, and the ticks the person just made
 * would flicker off and on — but once the last of them is answered.
 */
interface SyncState {
  /** The newest task version the list was brought up to (asked again for, or changed by this tab). */
  handled: number;
  /** Versions this tab's own changes made. */
  own: Set<number>;
  /** Something changed that the list does not hold yet: ask again once this tab's changes are answered. */
  missed: boolean;
}
const syncByClient = new WeakMap<QueryClient, Map<string, SyncState>>();
function syncOf(queryClient: QueryClient, taskId: string, version: number): SyncState {
  let byTask = syncByClient.get(queryClient);
  if (!byTask) {
    byTask = new Map();
    syncByClient.set(queryClient, byTask);
  }
  let state = byTask.get(taskId);
  if (!state) {
    state = { handled: version, own: new Set(), missed: false };
    byTask.set(taskId, state);
  }
  return state;
}

export const CHANGE_CHECKLIST_KEY = ['queued', 'checklist'] as const;
const mutationKey = (taskId: string) => [...CHANGE_CHECKLIST_KEY, taskId] as const;
const changesUnderWay = (queryClient: QueryClient, taskId: string) => queryClient.isMutating({ mutationKey: mutationKey(taskId) });

/** Asks for the list again when the task reached a version someone else made (see above). */
export function useChecklistSync(taskId: string, version: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const state = syncOf(queryClient, taskId, version);
    if (version <= state.handled) return;
    state.handled = version;
    if (state.own.has(version)) return;
    if (changesUnderWay(queryClient, taskId) > 0) state.missed = true;
    else void queryClient.invalidateQueries({ queryKey: checklistKeys.list(taskId), exact: true });
  }, [queryClient, taskId, version]);
}

/** What a refused change says, with the server's reason (made when it is said, in the language in use). */
const changeFailed = (reason: string) => t`Couldn’t change the checklist. ${reason}`;

/** A checklist change as it waits in the queue: everything needed to send it after a reload. */
export interface ChecklistVariables {
  taskId: string;
  change: ChecklistChange;
}
interface ChecklistContext {
  before: ChecklistItem | undefined;
  index: number;
}

/**
 * How every checklist change is sent and answered, for this session's changes and restored ones
 * alike. The list shows it at once; a failure takes back just that change and says why.
 * `receiveTask`: where the task after a change goes (the answer's `task`: its new version and
 * counts), to be written into the task's copies by the app, so the card shows "3/5" and the next
 * edit of the task sends the version this change produced.
 */
export function registerChecklistWrites(queryClient: QueryClient, receiveTask: (task: Task) => void): void {
  queryClient.setMutationDefaults<Answer, Error, ChecklistVariables, ChecklistContext>(CHANGE_CHECKLIST_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: ({ taskId, change }) => send(taskId, change),
    // Runs as `mutate` is called, without waiting: the change shows in the same render as the
    // click (a controlled checkbox would otherwise flip back for a moment).
    onMutate: ({ taskId, change }) => {
      markMadeHere(change);
      const key = checklistKeys.list(taskId);
      if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
        // That fetch may answer from before this change: it is stopped now (the list keeps what
        // it shows) and asked again once this device's changes are answered.
        syncOf(queryClient, taskId, 0).missed = true;
        void queryClient.cancelQueries({ queryKey: key, exact: true });
      }
      const items = queryClient.getQueryData<ChecklistItem[]>(key) ?? [];
      const id = change.kind === 'update' || change.kind === 'delete' ? change.itemId : null;
      const index = id === null ? -1 : items.findIndex((item) => item._id === id);
      queryClient.setQueryData<ChecklistItem[]>(key, applyChange(items, change));
      return { before: index < 0 ? undefined : items[index], index };
    },
    onSuccess: ({ item, tasks }, { taskId, change }) => {
      const state = syncOf(queryClient, taskId, 0);
      for (const task of tasks) {
        // A version between the last one the list knows and this one was someone else's.
        if (task.version - 1 > state.handled) state.missed = true;
        state.own.add(task.version);
        state.handled = Math.max(state.handled, task.version);
        receiveTask(task);
      }
      if (!item) return;
      const shownId = change.kind === 'add' || change.kind === 'restore' ? change.tempId : item._id;
      queryClient.setQueryData<ChecklistItem[]>(checklistKeys.list(taskId), (items) =>
        items?.map((shown) => (shown._id === shownId ? { ...shown, _id: item._id, text: item.text, done: item.done } : shown)),
      );
    },
    onError: (error, { taskId, change }, context) => {
      queryClient.setQueryData<ChecklistItem[]>(checklistKeys.list(taskId), (items) => (items && context ? revertChange(items, change, context.before, context.index) : items));
      syncOf(queryClient, taskId, 0).missed = true;
      if (!isUnauthorized(error)) queueNotices.send(queryClient, { tone: 'error', text: changeFailed(errorText(error)) });
    },
    onSettled: (_answer, _error, { taskId }) => {
      const state = syncOf(queryClient, taskId, 0);
      // This one still counts as under way here.
      if (changesUnderWay(queryClient, taskId) > 1 || !state.missed) return;
      state.missed = false;
      void queryClient.invalidateQueries({ queryKey: checklistKeys.list(taskId), exact: true });
    },
  });
}

/** Every checklist change of task `taskId` goes through here (`mutate(change)`). */
export function useChangeChecklist(taskId: string) {
  const mutation = useMutation<Answer, Error, ChecklistVariables, ChecklistContext>({ mutationKey: mutationKey(taskId) });
  const { mutate: sendChange } = mutation;
  const mutate = useCallback(
    (change: ChecklistChange, options?: MutateOptions<Answer, Error, ChecklistVariables, ChecklistContext>) => {
      sendChange({ taskId, change }, options);
    },
    [sendChange, taskId],
  );
  return useMemo(() => ({ ...mutation, mutate }), [mutation, mutate]);
}
