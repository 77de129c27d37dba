import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChecklistEnvelope, ChecklistItem } from '#shared/schemas/checklist.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const checklistKeys = {
  all: ['checklist'] as const,
  list: (taskId: string) => [...checklistKeys.all, taskId] as const,
};

export const checklistPath = (taskId: string, itemId?: string) =>
  `/tasks/${encodeURIComponent(taskId)}/checklist${itemId === undefined ? '' : `/${encodeURIComponent(itemId)}`}`;

/** `GET /api/tasks/:id/checklist`: the items in their order. */
export async function getChecklist(taskId: string, signal?: AbortSignal): Promise<ChecklistItem[]> {
  const envelope = await apiRequest<ChecklistEnvelope>(checklistPath(taskId), { signal });
  return envelope.data.items;
}

export function checklistQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: checklistKeys.list(taskId),
    queryFn: ({ signal }) => getChecklist(taskId, signal),
  });
}

export function useChecklist(taskId: string) {
  return useQuery(checklistQueryOptions(taskId));
}
