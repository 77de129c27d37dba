import { i18n } from '@lingui/core';
import { useMutation, type QueryClient } from '@tanstack/react-query';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { markMadeHere, QUEUED_WRITE_OPTIONS, queueNotices, sendDelete } from '#web/lib/write-queue.ts';
import { cancelListFetches } from './cache-writes.ts';
import { versionToSend } from './own-versions.ts';
import { removeOptimistically, restoreRemoved } from './task-receipts.ts';
import { settleFailedWrite } from './update-task.ts';

export const DELETE_TASK_KEY = ['queued', 'task', 'delete'] as const;

/** Success is exactly HTTP 204; anything else fails with its message or the default text. */
export async function deleteTask(id: string, version: number): Promise<void> {
  await apiRequest<undefined>(`/tasks/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    query: { version },
    expectNoContent: true,
    fallbackMessage: i18n._(CLIENT_MESSAGES.deleteFailedDefault),
  });
}

/** How a delete is sent and answered; the variables are the task as it was shown. */
export function registerDeleteTask(queryClient: QueryClient): void {
  queryClient.setMutationDefaults<null, Error, Task>(DELETE_TASK_KEY, {
    ...QUEUED_WRITE_OPTIONS,
    mutationFn: async (task) => {
      await sendDelete(task, () => deleteTask(task._id, versionToSend(queryClient, task)));
      return null;
    },
    onMutate: async (task) => {
      markMadeHere(task);
      await cancelListFetches(queryClient);
      removeOptimistically(queryClient, task);
    },
    onError: (error, task) => {
      const say = (message: string) => {
        queueNotices.send(queryClient, { tone: 'error', text: message });
      };
      settleFailedWrite(queryClient, say, error, { kind: 'delete', base: task, mine: {} }, () => {
        restoreRemoved(queryClient, task);
      });
    },
  });
}

/**
 * The card goes at once; a failure brings it back and says why (the "Error deleting
 * task" when the answer carries no message); a 409 asks the person first.
 */
export function useDeleteTask() {
  return useMutation<null, Error, Task>({ mutationKey: DELETE_TASK_KEY });
}
