import { t } from '@lingui/core/macro';
import { useMutation, type QueryClient } from '@tanstack/react-query';
import { nextDeadline } from '#shared/repeat.ts';
import type { Task, TaskEnvelope, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { apiRequest, isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { QUEUED_WRITE_OPTIONS, queueNotices, THIS_PAGE_LOAD } from '#web/lib/write-queue.ts';
import { taskConflicts, type Conflict } from './live-board-context.ts';
import { cancelListFetches, findCachedTask, writeTask } from './cache-writes.ts';
import { recordOwnChange, versionToSend } from './own-versions.ts';
import { receiveRemoval, receiveTask } from './task-receipts.ts';
import { refreshTaskDetails } from './query-keys.ts';
import { formatDeadline } from '../utils/deadline.ts';

const UPDATE_FAILED = (title: string, why: string) => t`Couldn’t save “${title}”. ${why}`;

export const UPDATE_TASK_KEY = ['queued', 'task', 'update'] as const;

/** A change of a task as it waits in the queue: everything needed to send it after a reload. */
export interface UpdateVariables {
  /** The copy the change was made on: its version is the one the change is based on. */
  task: Task;
  changes: UpdateTaskBody;
  /** The new labels to show meanwhile (`changes.labelIds` are what is sent). */
  labels?: Task['labels'];
  /** The new cover to show meanwhile (`changes.coverId` is what is sent). */
  cover?: Task['cover'];
  /**
   * A completion or reopening: the column the server will put the task in (the first of the
   * new status on its board), to show it there meanwhile; the answer says where it is.
   */
  columnId?: string;
}
interface UpdateAnswer {
  updated: Task;
  /** The version the change was sent with. */
  sent: number;
}
interface UpdateContext {
  shown: Task;
  optimistic: Task;
  /** The page load the change was made in (THIS_PAGE_LOAD). */
  madeIn: string;
}
/** `quiet`: the control that made the change says itself what went wrong. */
interface UpdateMeta extends Record<string, unknown> {
  quiet?: boolean;
}

/** The change sent with the version it is based on; a different current version answers 409. */
export async function updateTask(id: string, changes: UpdateTaskBody, version: number): Promise<Task> {
  const envelope = await apiRequest<TaskEnvelope>(`/tasks/${encodeURIComponent(id)}`, { method: 'PATCH', body: { ...changes, version } });
  return envelope.data.task;
}

/** The current task a 409 answer carries, if it is one. */
export function conflictingTask(error: unknown): Task | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const data = error.data as { task?: Task } | undefined;
  return data?.task && typeof data.task._id === 'string' ? data.task : null;
}

const sameInstant = (a: string | null, b: string | null) => a === b || (a !== null && b !== null && Date.parse(a) === Date.parse(b));

/** Whether `task` holds every field of `changes` as sent. */
export function holdsChanges(task: Task, { version: _version, labelIds, deadline, startAt, workTitle, repeat, coverId, ...rest }: UpdateTaskBody): boolean {
  if (labelIds !== undefined && [...labelIds].sort().join() !== task.labels.map((l) => l._id).sort().join()) return false;
  if (coverId !== undefined && coverId !== (task.cover?.attachmentId ?? null)) return false;
  if (deadline !== undefined && !sameInstant(deadline === '' ? null : deadline, task.deadline)) return false;
  if (startAt !== undefined && !sameInstant(startAt === '' ? null : startAt, task.startAt)) return false;
  if (workTitle !== undefined && (workTitle ?? '') !== task.workTitle) return false;
  if (repeat !== undefined && JSON.stringify(repeat) !== JSON.stringify(task.repeat)) return false;
  const fields: Record<string, unknown> = rest;
  return Object.keys(fields).every((key) => fields[key] === undefined || (task as Record<string, unknown>)[key] === fields[key]);
}

/**
 * Sends a queued change. A 409 whose task is exactly one version on and holds this change is
 * this change, done by the server on an earlier try whose answer never arrived: it counts as
 * this try's answer, not as a conflict.
 */
async function sendUpdate(queryClient: QueryClient, { task, changes }: UpdateVariables): Promise<UpdateAnswer> {
  const sent = versionToSend(queryClient, task);
  try {
    return { updated: await updateTask(task._id, changes, sent), sent };
  } catch (error) {
    const theirs = conflictingTask(error);
    if (theirs?.version === sent + 1 && holdsChanges(theirs, changes)) return { updated: theirs, sent };
    throw error;
  }
}

/** Field by field (the cache copies what it stores, so identity says nothing). */
function sameTask(a: Task | undefined, b: Task): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

/**
 * The copy a change shows at once: the task with the changed fields written in. New labels are
 * sent as ids (`labelIds`); `labels` are the same labels to show meanwhile; so are a new cover
 * (`coverId`) and `cover`.
 */
function withChanges(task: Task, { labelIds: _ids, coverId, ...changes }: UpdateTaskBody, labels: Task['labels'] | undefined, cover: Task['cover'] | undefined): Task {
  return {
    ...task,
    ...changes,
    cover: coverId === undefined ? task.cover : coverId === null ? null : (cover ?? task.cover),
    workTitle: changes.workTitle === undefined ? task.workTitle : (changes.workTitle ?? ''),
    deadline: changes.deadline === undefined ? task.deadline : changes.deadline === '' ? null : changes.deadline,
    startAt: changes.startAt === undefined ? task.startAt : changes.startAt === '' ? null : changes.startAt,
    labels: labels ?? task.labels,
  };
}

/**
 * After a refused write: a 409 shows the server's task and asks the person (conflict dialog);
 * otherwise a 404 takes the task off the board, anything else puts back what the cache held
 * before, and the message says what went wrong (a 401 is the session's to handle). It is shown
 * from here, not by the control that started the write: that may be gone by now, or the change
 * may have waited on the device through a reload.
 */
export function settleFailedWrite(
  queryClient: QueryClient,
  notify: ((text: string) => void) | null,
  error: unknown,
  conflict: Omit<Conflict, 'theirs'>,
  rollback: () => void,
): void {
  const theirs = conflictingTask(error);
  if (theirs) {
    // `answer`: it also replaces the optimistic copy, which carries the version it was based on.
    receiveTask(queryClient, theirs, { isNew: false, answer: true });
    taskConflicts.send(queryClient, { ...conflict, theirs });
    return;
  }
  if (isApiError(error) && error.status === 404) receiveRemoval(queryClient, conflict.base._id, Number.MAX_SAFE_INTEGER);
  else rollback();
  if (!isUnauthorized(error)) notify?.(errorText(error));
}

/** What completing `task` made, in words, if it repeats: "Next occurrence due 3 Dec, 09:00". */
function nextOccurrenceNote(task: Task, changes: UpdateTaskBody): string | null {
  if (changes.status !== 'done' || task.status === 'done' || !task.repeat || !task.deadline) return null;
  const now = new Date();
  const due = formatDeadline(new Date(nextDeadline(task.deadline, task.repeat, now)), now);
  return t`Next occurrence due ${due}.`;
}

/** How a task change is sent and answered, for this session's changes and restored ones alike. */
export function registerUpdateTask(queryClient: QueryClient): void {
  queryClient.setMutationDefaults<UpdateAnswer, Error, UpdateVariables, UpdateContext>(UPDATE_TASK_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: (variables) => sendUpdate(queryClient, variables),
    onMutate: async ({ task, changes, labels, cover, columnId }) => {
      await cancelListFetches(queryClient);
      const shown = findCachedTask(queryClient, task._id) ?? task;
      const optimistic = { ...withChanges(shown, changes, labels, cover), ...(columnId ? { columnId } : {}) };
      writeTask(queryClient, shown, optimistic);
      return { shown, optimistic, madeIn: THIS_PAGE_LOAD };
    },
    onSuccess: ({ updated, sent }, { task, changes }) => {
      recordOwnChange(queryClient, task._id, sent, updated.version);
      receiveTask(queryClient, updated, { isNew: false, answer: true });
      refreshTaskDetails(queryClient, task._id);
      // Completing a repeating task made its next occurrence (it arrives as a new task).
      const next = nextOccurrenceNote(task, changes);
      if (next) queueNotices.send(queryClient, { tone: 'success', text: next });
    },
    onError: (error, { task, changes }, context, { meta }) => {
      // A quiet change made in this page load has its control to say it; one restored from the device has none.
      const quiet = meta?.quiet === true && context?.madeIn === THIS_PAGE_LOAD;
      const say = quiet
        ? null
        : (message: string) => {
            queueNotices.send(queryClient, { tone: 'error', text: UPDATE_FAILED(task.taskTitle, message) });
          };
      settleFailedWrite(queryClient, say, error, { kind: 'update', base: task, mine: changes }, () => {
        // Only if nothing newer arrived meanwhile: then that copy is the truth.
        if (context && sameTask(findCachedTask(queryClient, task._id), context.optimistic)) writeTask(queryClient, context.optimistic, context.shown);
      });
    },
  });
}

/**
 * Edit (assignee, priority, start), complete and reopen, the description, labels, the cover, the
 * board it is on and "Apply mine on top" all go through here. The card shows the change at once; it waits in
 * the device's queue (queued while offline) and the server's answer replaces it; a refusal
 * rolls it back with a message (`quiet`: the caller shows it), a 409 opens the conflict dialog.
 */
export function useUpdateTask({ quiet = false }: { quiet?: boolean } = {}) {
  return useMutation<UpdateAnswer, Error, UpdateVariables, UpdateContext>({ mutationKey: UPDATE_TASK_KEY, meta: { quiet } satisfies UpdateMeta });
}
