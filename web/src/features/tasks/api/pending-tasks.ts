import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';
import { newStandInId } from '#web/lib/write-queue.ts';
import { taskKeys, type TaskPages } from './query-keys.ts';

/** Stand-in cards: tasks this tab shows before the server has answered their creation. */

const PENDING_PREFIX = 'pending-';

/** Random: a stand-in restored from the device after a reload never meets one made after it. */
export const newPendingId = (): string => newStandInId(PENDING_PREFIX);
export const isPendingTask = (task: Task): boolean => task._id.startsWith(PENDING_PREFIX);

/** A stand-in card of this tab's create that `task` is the saved form of. */
export function pendingTwin(queryClient: QueryClient, task: Task): Task | undefined {
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const twin = page.tasks.find(
        (t) => isPendingTask(t) && t.taskTitle === task.taskTitle && t.assignee === task.assignee && t.assignorEmail === task.assignorEmail,
      );
      if (twin) return twin;
    }
  }
  return undefined;
}
