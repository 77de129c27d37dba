import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { nextDeadline } from '#shared/repeat.ts';
import type { Task, TaskEnvelope, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { useNotices } from '#web/components/notices.tsx';
import { apiRequest, isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { useLiveBoard, type LiveBoardState } from './live-board-context.ts';
import { cancelListFetches, findCachedTask, writeTask } from './cache-writes.ts';
import { recordOwnChange, versionToSend } from './own-versions.ts';
import { receiveRemoval, receiveTask } from './task-receipts.ts';
import { refreshTaskDetails } from './query-keys.ts';
import { formatDeadline } from '../utils/deadline.ts';

const UPDATE_FAILED = (title: string, message: string) => `Couldn’t save “${title}”. ${message}`;

/** Every task write of this tab runs in this order, one at a time (each needs the last one's version). */
export const TASK_WRITES = { id: 'task-writes' };

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

/** Field by field (the cache copies what it stores, so identity says nothing). */
function sameTask(a: Task | undefined, b: Task): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

/**
 * The copy a change shows at once: the task with the changed fields written in. New labels are
 * sent as ids (`labelIds`); `labels` are the same labels to show meanwhile.
 */
function withChanges(task: Task, { labelIds: _ids, ...changes }: UpdateTaskBody, labels: Task['labels'] | undefined): Task {
  return {
    ...task,
    ...changes,
    workTitle: changes.workTitle === undefined ? task.workTitle : (changes.workTitle ?? ''),
    deadline: changes.deadline === undefined ? task.deadline : changes.deadline === '' ? null : changes.deadline,
    labels: labels ?? task.labels,
  };
}

/**
 * After a refused write: a 409 shows the server's task and asks the person (conflict dialog);
 * otherwise a 404 takes the task off the board, anything else puts back what the cache held
 * before, and the message says what went wrong (a 401 has signed out already). It is shown
 * from here, not by the control that started the write: that may be gone by now.
 */
export function settleFailedWrite(
  queryClient: QueryClient,
  live: LiveBoardState,
  notify: (text: string) => void,
  error: unknown,
  conflict: { kind: 'update' | 'delete'; base: Task; mine: UpdateTaskBody },
  rollback: () => void,
): void {
  const theirs = conflictingTask(error);
  if (theirs) {
    // `answer`: it also replaces the optimistic copy, which carries the version it was based on.
    receiveTask(queryClient, theirs, { isNew: false, answer: true });
    live.conflicts.add({ ...conflict, theirs });
    return;
  }
  if (isApiError(error) && error.status === 404) receiveRemoval(queryClient, conflict.base._id, Number.MAX_SAFE_INTEGER);
  else rollback();
  if (!isUnauthorized(error)) notify(isApiError(error) ? error.message : String(error));
}

/** What completing `task` made, in words, if it repeats: "Next occurrence due 3 Dec, 09:00". */
function nextOccurrenceNote(task: Task, changes: UpdateTaskBody): string | null {
  if (changes.status !== 'done' || task.status === 'done' || !task.repeat || !task.deadline) return null;
  const now = new Date();
  return `Next occurrence due ${formatDeadline(new Date(nextDeadline(task.deadline, task.repeat, now)), now)}.`;
}

/**
 * Edit (assignee, priority), complete and reopen, the description, labels and "Apply mine on top" all
 * go through here. The card shows the change at once; the server's answer replaces it, and a
 * failure rolls it back with a message (`quiet`: the caller shows it), a 409 with the conflict
 * dialog.
 */
export function useUpdateTask({ quiet = false }: { quiet?: boolean } = {}) {
  const queryClient = useQueryClient();
  const live = useLiveBoard();
  const { notify } = useNotices();
  return useMutation({
    scope: TASK_WRITES,
    mutationFn: async ({ task, changes }: { task: Task; changes: UpdateTaskBody; labels?: Task['labels'] }) => {
      const sent = versionToSend(queryClient, task);
      return { updated: await updateTask(task._id, changes, sent), sent };
    },
    onMutate: async ({ task, changes, labels }) => {
      await cancelListFetches(queryClient);
      const shown = findCachedTask(queryClient, task._id) ?? task;
      const optimistic = withChanges(shown, changes, labels);
      writeTask(queryClient, shown, optimistic);
      return { shown, optimistic };
    },
    onSuccess: ({ updated, sent }, { task, changes }) => {
      recordOwnChange(queryClient, task._id, sent, updated.version);
      receiveTask(queryClient, updated, { isNew: false, answer: true });
      refreshTaskDetails(queryClient, task._id);
      // Completing a repeating task made its next occurrence (it arrives as a new task).
      const next = nextOccurrenceNote(task, changes);
      if (next) notify('success', next);
    },
    onError: (error, { task, changes }, context) => {
      const say = (message: string) => {
        if (!quiet) notify('error', UPDATE_FAILED(task.taskTitle, message));
      };
      settleFailedWrite(queryClient, live, say, error, { kind: 'update', base: task, mine: changes }, () => {
        // Only if nothing newer arrived meanwhile: then that copy is the truth.
        if (context && sameTask(findCachedTask(queryClient, task._id), context.optimistic)) writeTask(queryClient, context.optimistic, context.shown);
      });
    },
  });
}
