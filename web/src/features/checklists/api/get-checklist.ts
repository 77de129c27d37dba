import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChecklistEnvelope, ChecklistItem } from '#shared/schemas/checklist.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const checklistKeys = {
  all: ['checklist'] as const,
  list: (taskId: string) => [...checklistKeys.all, taskId] as const,
};

export const checklistPath = (taskId: string, itemId?: string) =>
  `/tasks/${encodeURIComponent(taskId)}/checklist${itemId === undefined ? '' : `/${encodeURIComponent(itemId)}`}`;

/** What the app gives the checklist: where a changed task goes, and the queue task writes share. */
export interface ChecklistHost {
  /**
   * The task after a checklist change (the answer's `task`: its new version and counts), to be
   * written into the task's copies, so the card shows "3/5" and the next edit of the task sends
   * the version this change produced.
   */
  receiveTask: (task: Task) => void;
  /** The mutation scope of the task's other writes: one write at a time, each after the last one's answer. */
  scope: { id: string };
}

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
