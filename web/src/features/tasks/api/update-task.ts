import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Task, TaskEnvelope, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { applyTaskChange } from './task-cache.ts';

export async function updateTask(id: string, changes: UpdateTaskBody): Promise<Task> {
  const envelope = await apiRequest<TaskEnvelope>(`/tasks/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes });
  return envelope.data.task;
}

/** Edit (assignee, priority) and complete (`{status: 'done'}`) both go through here. */
export function useUpdateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ task, changes }: { task: Task; changes: UpdateTaskBody }) => updateTask(task._id, changes),
    onSuccess: (updated, { task }) => applyTaskChange(queryClient, task, updated),
  });
}
