import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { useNotices } from '#web/components/notices.tsx';
import { apiRequest } from '#web/lib/api-client.ts';
import { useLiveBoard } from './live-board-context.ts';
import { cancelListFetches } from './cache-writes.ts';
import { versionToSend } from './own-versions.ts';
import { removeOptimistically, restoreRemoved } from './task-receipts.ts';
import { settleFailedWrite, TASK_WRITES } from './update-task.ts';

/** Success is exactly HTTP 204; anything else fails with its message or the default text. */
export async function deleteTask(id: string, version: number): Promise<void> {
  await apiRequest<undefined>(`/tasks/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    query: { version },
    expectNoContent: true,
    fallbackMessage: CLIENT_MESSAGES.deleteFailedDefault,
  });
}

/**
 * The card goes at once; a failure brings it back and says why (the "Error deleting
 * task" when the answer carries no message); a 409 asks the person first.
 */
export function useDeleteTask() {
  const queryClient = useQueryClient();
  const live = useLiveBoard();
  const { notify } = useNotices();
  return useMutation({
    scope: TASK_WRITES,
    mutationFn: (task: Task) => deleteTask(task._id, versionToSend(queryClient, task)),
    onMutate: async (task) => {
      await cancelListFetches(queryClient);
      removeOptimistically(queryClient, task);
    },
    onError: (error, task) => {
      const say = (message: string) => {
        notify('error', message);
      };
      settleFailedWrite(queryClient, live, say, error, { kind: 'delete', base: task, mine: {} }, () => {
        restoreRemoved(queryClient, task);
      });
    },
  });
}
