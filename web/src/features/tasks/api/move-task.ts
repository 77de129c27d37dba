import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useMutation, type QueryClient } from '@tanstack/react-query';
import { COLUMN_MESSAGES } from '#shared/column-messages.ts';
import type { MoveTaskEnvelope } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { apiRequest, isApiError } from '#web/lib/api-client.ts';
import { QUEUED_WRITE_OPTIONS, queueNotices } from '#web/lib/write-queue.ts';
import { cancelListFetches, findCachedTask, writeTask } from './cache-writes.ts';
import type { TaskPlace } from './live-board-context.ts';
import { recordOwnChange, versionToSend } from './own-versions.ts';
import { filterOfKey, refreshTaskDetails, taskKeys } from './query-keys.ts';
import { receiveTask } from './task-receipts.ts';
import { conflictingTask, settleFailedWrite } from './update-task.ts';

export const MOVE_TASK_KEY = ['queued', 'task', 'move'] as const;

/**
 * A move as it waits in the queue: everything needed to send it after a reload. `task` is the
 * copy the move was made on (its version is the one the move is based on); `category` is the
 * status the task has in `columnId`; `afterId` the task it goes directly below (null: the top).
 */
export interface MoveVariables extends TaskPlace {
  task: Task;
}
interface MoveAnswer {
  moved: Task;
  sent: number;
  message: string;
}
interface MoveContext {
  shown: Task;
  optimistic: Task;
}

/** The notice when the spot a card was dropped on is gone (someone moved the card it was to follow). */
export const STALE_POSITION_NOTICE = msg`The column changed meanwhile, so the card could not go there. The column has been reloaded: try again.`;

export async function moveTask(id: string, body: { columnId: string; afterId: string | null; version: number }): Promise<{ task: Task; message: string }> {
  const envelope = await apiRequest<MoveTaskEnvelope>(`/tasks/${encodeURIComponent(id)}/move`, { method: 'POST', body });
  return { task: envelope.data.task, message: envelope.message };
}

/** Same-category moves keep the status; the server's answer alone says where the card is. */
async function sendMove(queryClient: QueryClient, { task, columnId, afterId }: MoveVariables): Promise<MoveAnswer> {
  const sent = versionToSend(queryClient, task);
  try {
    const { task: moved, message } = await moveTask(task._id, { columnId, afterId, version: sent });
    return { moved, sent, message };
  } catch (error) {
    // An earlier try that did this move, whose answer never arrived.
    const theirs = conflictingTask(error);
    if (theirs?.version === sent + 1 && theirs.columnId === columnId) return { moved: theirs, sent, message: '' };
    throw error;
  }
}

const isStalePosition = (error: unknown) => isApiError(error) && error.status === 409 && error.code === 'STALE_POSITION';

/** Asks the server again for the column's lists (every filter of it held in the cache). */
function refreshColumn(queryClient: QueryClient, columnId: string): void {
  void queryClient.invalidateQueries({ queryKey: taskKeys.lists(), predicate: (query) => filterOfKey(query.queryKey).column === columnId });
}

/**
 * How a move is sent and answered. The card shows at its new place at once (directly below
 * `afterId`); the server alone computes its position key, and its answer replaces the copy. A
 * stale version opens the conflict dialog; a spot that is gone (STALE_POSITION) puts the card
 * back, reloads the column and says so; a column left over its WIP limit is said in a notice.
 */
export function registerMoveTask(queryClient: QueryClient): void {
  queryClient.setMutationDefaults<MoveAnswer, Error, MoveVariables, MoveContext>(MOVE_TASK_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: (variables) => sendMove(queryClient, variables),
    onMutate: async ({ task, columnId, category, afterId }) => {
      await cancelListFetches(queryClient);
      const shown = findCachedTask(queryClient, task._id) ?? task;
      const optimistic: Task = { ...shown, columnId, status: category };
      writeTask(queryClient, shown, optimistic, { afterId });
      return { shown, optimistic };
    },
    onSuccess: ({ moved, sent, message }, { task }) => {
      recordOwnChange(queryClient, task._id, sent, moved.version);
      receiveTask(queryClient, moved, { isNew: false, answer: true });
      refreshTaskDetails(queryClient, task._id);
      if (message && message !== COLUMN_MESSAGES.taskMoved) queueNotices.send(queryClient, { tone: 'info', text: message });
    },
    onError: (error, { task, columnId, category, afterId }, context) => {
      const rollback = () => {
        const current = findCachedTask(queryClient, task._id);
        if (context && current?.version === context.optimistic.version && current.columnId === context.optimistic.columnId) writeTask(queryClient, context.optimistic, context.shown);
      };
      if (isStalePosition(error)) {
        rollback();
        refreshColumn(queryClient, columnId);
        queueNotices.send(queryClient, { tone: 'info', text: i18n._(STALE_POSITION_NOTICE) });
        return;
      }
      // A 409 CONFLICT asks the person; "Apply mine on top" then makes the same move on their version.
      const mine = category === task.status ? {} : { status: category };
      const say = (why: string) => {
        const title = task.taskTitle;
        queueNotices.send(queryClient, { tone: 'error', text: t`Couldn’t move “${title}”. ${why}` });
      };
      settleFailedWrite(queryClient, say, error, { kind: 'move', base: task, mine, move: { columnId, category, afterId } }, rollback);
    },
  });
}

/** Moves a card: shown at once, queued (waiting while offline), answered as registerMoveTask says. */
export function useMoveTask() {
  return useMutation<MoveAnswer, Error, MoveVariables, MoveContext>({ mutationKey: MOVE_TASK_KEY });
}
