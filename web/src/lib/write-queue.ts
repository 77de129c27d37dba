import type { Mutation, QueryClient } from '@tanstack/react-query';

/*
 * The queue of this device's changes is TanStack Query's mutation cache: every change that
 * must reach the server (a task, a comment, a checklist item) is a mutation in this one scope,
 * so they run one at a time, in the order they were made. While offline they wait (paused); the
 * device copy (device-copy.ts) stores the waiting ones and resumes them after a reload.
 */
export const QUEUED_WRITES = { id: 'queued-writes' };

const isQueued = (mutation: Mutation<unknown, unknown>): boolean =>
  mutation.options.scope?.id === QUEUED_WRITES.id && mutation.state.status === 'pending';

/** How many changes have not been answered by the server yet (waiting or under way). */
export function countQueuedWrites(queryClient: QueryClient): number {
  return queryClient.getMutationCache().getAll().filter(isQueued).length;
}
