import type { QueryClient } from '@tanstack/react-query';

/**
 * Registers every feature's queued writes (`queryClient.setMutationDefaults` per mutation key),
 * so a change stored on the device before a reload can be sent after it: its mutation function
 * and its handling of the answer come from here, not from the component that made it.
 * Called once per query client, before the device copy is restored.
 */
export function registerQueuedWrites(_queryClient: QueryClient): void {
  // Filled in by the tasks, comments and checklists features.
}
