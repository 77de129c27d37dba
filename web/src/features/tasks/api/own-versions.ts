import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';

/**
 * Versions this tab's own saves moved a task through (from → to), so a second change queued
 * behind the first carries the version the first one produced: the client's own change is
 * not a conflict with itself. Kept per query client (one per tab).
 */
const ownSteps = new WeakMap<QueryClient, Map<string, Map<number, number>>>();

export function recordOwnChange(queryClient: QueryClient, id: string, from: number, to: number): void {
  let byTask = ownSteps.get(queryClient);
  if (!byTask) {
    byTask = new Map();
    ownSteps.set(queryClient, byTask);
  }
  const steps = byTask.get(id) ?? new Map<number, number>();
  steps.set(from, to);
  byTask.set(id, steps);
}

/** The version to send for a change based on `task`: its own, moved on past this tab's own saves. */
export function versionToSend(queryClient: QueryClient, task: Task): number {
  const steps = ownSteps.get(queryClient)?.get(task._id);
  let version = task.version;
  for (let next = steps?.get(version); next !== undefined && next > version; next = steps?.get(version)) version = next;
  return version;
}
