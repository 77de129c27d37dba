import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { refreshTasks } from './query-keys.ts';
import { applyTaskChange } from './task-cache.ts';

/** Success is exactly HTTP 204; anything else fails with its message or the seed's default. */
export async function deleteTask(id: string): Promise<void> {
  await apiRequest<undefined>(`/tasks/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    expectNoContent: true,
    fallbackMessage: CLIENT_MESSAGES.deleteFailedDefault,
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (task: Task) => deleteTask(task._id),
    onSuccess: (_nothing, task) => applyTaskChange(queryClient, task, null),
    // A 404 means it is gone (or was never ours): show the board as it really is.
    onError: () => refreshTasks(queryClient),
  });
}
