import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Activity, ActivityListEnvelope } from '#shared/schemas/comments.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { taskKeys } from './query-keys.ts';

export const activityKey = (taskId: string) => [...taskKeys.detail(taskId), 'activity'] as const;

/** `GET /api/tasks/:id/activity`: who did what to the task, oldest first. */
export async function getTaskActivity(taskId: string, signal?: AbortSignal): Promise<Activity[]> {
  const envelope = await apiRequest<ActivityListEnvelope>(`/tasks/${encodeURIComponent(taskId)}/activity`, { signal });
  return envelope.data.activity;
}

/** The activity's query: the list's hook, and the task page's prefetch beside the task. */
export function activityQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: activityKey(taskId),
    queryFn: ({ signal }) => getTaskActivity(taskId, signal),
  });
}

export function useTaskActivity(taskId: string) {
  return useQuery(activityQueryOptions(taskId));
}
