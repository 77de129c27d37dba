import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTaskBody, Task, TaskEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { applyTaskChange } from './task-cache.ts';

export async function createTask(body: CreateTaskBody): Promise<{ task: Task; message: string }> {
  const envelope = await apiRequest<TaskEnvelope>('/tasks', { method: 'POST', body });
  return { task: envelope.data.task, message: envelope.message };
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: ({ task }) => applyTaskChange(queryClient, null, task),
  });
}
