import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/schemas/tasks.ts';

/**
 * Versions this device's own saves moved a task through (from → to), so a second change queued
 * behind the first carries the version the first one produced: the client's own change is
 * not a conflict with itself. Kept in the query cache, under its own key, so the device copy
 * stores them with the queue: a change resumed after a reload still finds the steps the changes
 * before it (answered before the reload) made.
 */
export const OWN_VERSIONS_KEY = ['own-versions'] as const;

/** task id → [from, to] pairs, oldest first. */
type OwnSteps = Record<string, readonly (readonly [number, number])[]>;

/** Tasks and steps per task remembered: far more than a queue holds. */
const MAX_TASKS = 500;
const MAX_STEPS = 50;

/** Never dropped while unused; "fetching" it (a refetch of everything) keeps what it holds. */
export function registerOwnVersions(queryClient: QueryClient): void {
  queryClient.setQueryDefaults(OWN_VERSIONS_KEY, {
    gcTime: Infinity,
    staleTime: Infinity,
    queryFn: () => queryClient.getQueryData<OwnSteps>(OWN_VERSIONS_KEY) ?? {},
  });
}

export function recordOwnChange(queryClient: QueryClient, id: string, from: number, to: number): void {
  queryClient.setQueryData<OwnSteps>(OWN_VERSIONS_KEY, (all = {}) => {
    const steps = [...(all[id] ?? []).filter(([f]) => f !== from), [from, to] as const].slice(-MAX_STEPS);
    const { [id]: _old, ...rest } = all;
    const kept = Object.entries(rest).slice(-(MAX_TASKS - 1));
    return { ...Object.fromEntries(kept), [id]: steps };
  });
}

/** The version to send for a change based on `task`: its own, moved on past this device's own saves. */
export function versionToSend(queryClient: QueryClient, task: Task): number {
  const steps = new Map(queryClient.getQueryData<OwnSteps>(OWN_VERSIONS_KEY)?.[task._id] ?? []);
  let version = task.version;
  for (let next = steps.get(version); next !== undefined && next > version; next = steps.get(version)) version = next;
  return version;
}
