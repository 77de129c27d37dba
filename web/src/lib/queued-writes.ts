/**
 * The scope of every change this device queues (lib/write-queue.ts): one scope, so they run one at
 * a time in the order they were made. On its own so that the device copy can tell queued changes
 * apart without loading the queue, and TanStack Query with it, on the signed-out screens.
 */
export const QUEUED_WRITES = { id: 'queued-writes' };
