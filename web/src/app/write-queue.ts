import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';
import { registerChecklistWrites } from '#web/features/checklists/api/change-checklist.ts';
import { registerCommentWrites } from '#web/features/comments/api/change-comments.ts';
import { activityKey } from '#web/features/tasks/api/get-task-activity.ts';
import { recordOwnChange } from '#web/features/tasks/api/own-versions.ts';
import { registerTaskWrites } from '#web/features/tasks/api/queued-task-writes.ts';
import { receiveTask } from '#web/features/tasks/api/task-receipts.ts';

/**
 * A checklist change answers with the task it made: one version on from the one it was made on
 * (no precondition), so an edit of the task based on that one is this device's own step, not a
 * conflict. The task's copies follow it, and its activity has a new entry ("checked “Buy milk”").
 */
export function receiveChecklistTask(queryClient: QueryClient, changed: Task): void {
  recordOwnChange(queryClient, changed._id, changed.version - 1, changed.version);
  receiveTask(queryClient, changed, { isNew: false, answer: true });
  void queryClient.invalidateQueries({ queryKey: activityKey(changed._id) });
}

const registered = new WeakSet<QueryClient>();

/**
 * Registers every feature's queued writes (`queryClient.setMutationDefaults` per mutation key),
 * so a change stored on the device before a reload can be sent after it: its mutation function
 * and its handling of the answer come from here, not from the component that made it.
 * Called once per query client, before the device copy is restored (a second call does nothing).
 */
export function registerQueuedWrites(queryClient: QueryClient): void {
  if (registered.has(queryClient)) return;
  registered.add(queryClient);
  registerTaskWrites(queryClient);
  registerCommentWrites(queryClient);
  registerChecklistWrites(queryClient, (changed) => {
    receiveChecklistTask(queryClient, changed);
  });
}
