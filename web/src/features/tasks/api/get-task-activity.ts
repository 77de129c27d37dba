import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/api-client.ts';
import { taskKeys } from './query-keys.ts';

/** The fields whose changes the activity log records, with their from → to values. */
export type ActivityField = 'taskTitle' | 'workTitle' | 'description' | 'assignee' | 'priority' | 'deadline';

export interface ActivityEntry {
  _id: string;
  type: 'created' | 'updated' | 'completed' | 'reopened' | 'commented';
  by: { fullName: string; email: string };
  at: string;
  changes?: Partial<Record<ActivityField, { from: unknown; to: unknown }>>;
}

interface ActivityEnvelope {
  status: 'success';
  data: { activity: ActivityEntry[] };
}

export const activityKey = (taskId: string) => [...taskKeys.detail(taskId), 'activity'] as const;

/** `GET /api/tasks/:id/activity`: who did what to the task, oldest first. */
export async function getTaskActivity(taskId: string, signal?: AbortSignal): Promise<ActivityEntry[]> {
  const envelope = await apiRequest<ActivityEnvelope>(`/tasks/${encodeURIComponent(taskId)}/activity`, { signal });
  return envelope.data.activity;
}

export function useTaskActivity(taskId: string) {
  return useQuery(
    queryOptions({
      queryKey: activityKey(taskId),
      queryFn: ({ signal }) => getTaskActivity(taskId, signal),
    }),
  );
}
