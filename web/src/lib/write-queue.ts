import { onlineManager, type Mutation, type QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';
import { QUEUED_WRITES } from './queued-writes.ts';

/*
 * The queue of this device's changes is TanStack Query's mutation cache: every change that
 * must reach the server (a task, a comment, a checklist item) is a mutation in this one scope,
 * so they run one at a time, in the order they were made. While offline they wait (paused); the
 * device copy (device-copy.ts) stores the waiting ones and resumes them after a reload. What a
 * change does with its answer is registered per mutation key (`setMutationDefaults`, see
 * app/write-queue.ts), never passed by the component that made it: a change resumed after a
 * reload has no component.
 */
export { QUEUED_WRITES };

const isQueued = (mutation: Mutation): boolean =>
  mutation.options.scope?.id === QUEUED_WRITES.id && mutation.state.status === 'pending';

/** How many changes have not been answered by the server yet (waiting or under way). */
export function countQueuedWrites(queryClient: QueryClient): number {
  return queryClient.getMutationCache().getAll().filter(isQueued).length;
}

/** The longest wait between two tries of a change that got no answer. */
export const MAX_RETRY_DELAY_MS = 30_000;
/** Answers that come from something between this device and the server, not from the server. */
const NOT_REACHED = new Set([502, 503, 504]);

/**
 * A change that got no answer from the server is tried again until it gets one: no answer at
 * all (the network, status 0), or a gateway's 502/503/504 (the server is down or restarting).
 * The person was told it is saved on this device; while the browser says it is offline TanStack
 * pauses it instead. A 429 is tried again after the wait the server asked for. Any other answer
 * is the server's, and final: a 500 means the server tried and failed, and trying the same
 * again would only fail again.
 */
export function retryQueuedWrite(_failureCount: number, error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.status === 0 || error.status === 429 || NOT_REACHED.has(error.status);
}

/** Doubling from a second up to MAX_RETRY_DELAY_MS, or what a 429's Retry-After asked for. */
export function queuedWriteRetryDelay(failureCount: number, error: unknown): number {
  if (isApiError(error) && error.status === 429 && error.retryAfter !== null) return error.retryAfter * 1000;
  return Math.min(1000 * 2 ** Math.max(0, failureCount - 1), MAX_RETRY_DELAY_MS);
}

const madeHere = new WeakSet<object>();
const tried = new WeakSet<object>();

/** Called by a change's onMutate, which runs only when the change is made (not when it is restored). */
export function markMadeHere(variables: object): void {
  madeHere.add(variables);
}

/**
 * Called by a change's mutationFn as it sends: whether the server may have done this change
 * already — it was tried before (the answer may have been lost), or it was made before a
 * reload (it may have been under way). Then a 404 on a delete means it is done.
 */
export function maybeSentBefore(variables: object): boolean {
  const before = tried.has(variables) || !madeHere.has(variables);
  tried.add(variables);
  return before;
}

/**
 * Sends a delete. A 404 on a try that may repeat one the server did already (see
 * maybeSentBefore) means it is done; on a first try it is the server's refusal.
 */
export async function sendDelete(variables: object, send: () => Promise<unknown>): Promise<void> {
  const again = maybeSentBefore(variables);
  try {
    await send();
  } catch (error) {
    if (!(again && isApiError(error) && error.status === 404)) throw error;
  }
}

/** What every queued change shares: its scope, and its retries. */
export const QUEUED_WRITE_OPTIONS = {
  scope: QUEUED_WRITES,
  networkMode: 'online',
  retry: retryQueuedWrite,
  retryDelay: queuedWriteRetryDelay,
} as const;

/**
 * Sends a queued change from a form. Online, the form waits for the answer (`whenAnswered`: it
 * closes on success, shows a refusal by its fields). Offline, the change waits in this device's
 * queue and already shows, so the form is done at once (`whenQueued`: it closes, or clears for
 * the next one) and whatever the server answers later is the queue's to report.
 */
export function submitQueued<TVariables, TOptions>(
  mutate: (variables: TVariables, options?: TOptions) => void,
  variables: TVariables,
  whenQueued: () => void,
  whenAnswered: TOptions,
): void {
  if (onlineManager.isOnline()) {
    mutate(variables, whenAnswered);
    return;
  }
  mutate(variables);
  whenQueued();
}

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
export const queueNotices = createOutlet<{ tone: 'success' | 'error' | 'info'; text: string }>();
