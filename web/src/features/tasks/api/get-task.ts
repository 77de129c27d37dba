import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskDataEnvelope } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { taskKeys } from './query-keys.ts';

/** `GET /api/tasks/:id`: one task the user can see (404 for any other id). */
export async function getTask(id: string, signal?: AbortSignal) {
  const envelope = await apiRequest<TaskDataEnvelope>(`/tasks/${encodeURIComponent(id)}`, { signal });
  return envelope.data.task;
}

export function taskQueryOptions(id: string) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => getTask(id, signal),
  });
}

/** The task page's task. A 404 is an answer ("Task not found"), not worth retrying. */
export function useTask(id: string) {
  return useQuery({
    ...taskQueryOptions(id),
    retry: (failures, error) => !(error instanceof Error && 'status' in error && error.status === 404) && failures < 2,
  });
}
