import type { Mutation, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

/*
 * The queue of this device's changes is TanStack Query's mutation cache: every change that
 * must reach the server (a task, a comment, a checklist item) is a mutation in this one scope,
 * so they run one at a time, in the order they were made. While offline they wait (paused); the
 * device copy (device-copy.ts) stores the waiting ones and resumes them after a reload. What a
 * change does with its answer is registered per mutation key (`setMutationDefaults`, see
 * app/write-queue.ts), never passed by the component that made it: a change resumed after a
 * reload has no component.
 */
export const QUEUED_WRITES = { id: 'queued-writes' };

const isQueued = (mutation: Mutation): boolean =>
  mutation.options.scope?.id === QUEUED_WRITES.id && mutation.state.status === 'pending';

/** How many changes have not been answered by the server yet (waiting or under way). */
export function countQueuedWrites(queryClient: QueryClient): number {
  return queryClient.getMutationCache().getAll().filter(isQueued).length;
}

/** The longest wait between two tries of a change that got no answer. */
export const MAX_RETRY_DELAY_MS = 30_000;
/** Tries after a 5xx answer (the server answered, but may do better in a moment). */
const SERVER_ERROR_TRIES = 3;

/**
 * A change that got no answer at all (the network, status 0) is tried again until it gets one:
 * it may have been lost on the way, and the person was told it is saved on this device. While
 * the browser says it is offline TanStack pauses it instead. A 5xx is tried a few times, a 429
 * after the time the server asked for; any other answer is final.
 */
export function retryQueuedWrite(failureCount: number, error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 0) return true;
  if (error.status === 429) return true;
  return error.status >= 500 && failureCount < SERVER_ERROR_TRIES;
}

/** Doubling from a second up to MAX_RETRY_DELAY_MS, or what a 429's Retry-After asked for. */
export function queuedWriteRetryDelay(failureCount: number, error: unknown): number {
  if (isApiError(error) && error.status === 429 && error.retryAfter !== null) return error.retryAfter * 1000;
  return Math.min(1000 * 2 ** Math.max(0, failureCount - 1), MAX_RETRY_DELAY_MS);
}

/** What every queued change shares: its scope, and its retries. */
export const QUEUED_WRITE_OPTIONS = {
  scope: QUEUED_WRITES,
  networkMode: 'online',
  retry: retryQueuedWrite,
  retryDelay: queuedWriteRetryDelay,
} as const;

/**
 * An id for something shown before the server has saved it (a stand-in task, comment or
 * checklist item): random, so one made before a reload never meets one made after it.
 */
export const newStandInId = (prefix: string): string => `${prefix}${crypto.randomUUID()}`;

/**
 * This page load. A change made in it carries it (in its onMutate context); one restored from
 * the device carries an older one, so its handler knows no form is waiting for its answer.
 */
export const THIS_PAGE_LOAD = crypto.randomUUID();

/**
 * Things the answer handlers of queued changes hand to the screen (a message, a conflict to
 * decide): per query client, kept until a component takes them. A change resumed after a
 * reload may be answered before the page that shows them is drawn.
 */
export function createOutlet<T>() {
  const byClient = new WeakMap<QueryClient, { sink: ((item: T) => void) | null; waiting: T[] }>();
  const stateOf = (queryClient: QueryClient) => {
    let state = byClient.get(queryClient);
    if (!state) {
      state = { sink: null, waiting: [] };
      byClient.set(queryClient, state);
    }
    return state;
  };
  return {
    send(queryClient: QueryClient, item: T): void {
      const state = stateOf(queryClient);
      if (state.sink) state.sink(item);
      else state.waiting.push(item);
    },
    /** The component that shows them; what waited arrives at once. Returns the detach. */
    attach(queryClient: QueryClient, sink: (item: T) => void): () => void {
      const state = stateOf(queryClient);
      state.sink = sink;
      for (const item of state.waiting.splice(0)) sink(item);
      return () => {
        if (state.sink === sink) state.sink = null;
      };
    },
  };
}

/** Messages about queued changes ("Couldn’t save …"), shown by the notices. */
export const queueNotices = createOutlet<{ tone: 'success' | 'error'; text: string }>();
