import type { QueryClient } from '@tanstack/react-query';
import { API_BASE, apiRequest } from '#web/lib/api-client.ts';
import type { Viewer } from './live-board-context.ts';
import { refreshTasks } from './query-keys.ts';
import { applyTaskEvent, isTaskEventData, TASK_EVENTS, type LiveChange, type TaskEventType } from './task-events.ts';

/*
 * The tab's one live connection: `EventSource('/api/events')`, open while signed in. Task
 * events are written into the cache (task-events.ts); other features' events on the same
 * stream (comments) go to the handlers the app passes in. `event: reset` (the server could not
 * replay what was missed) refreshes every feature's queries once. The browser reconnects by
 * itself after a network drop and resends `Last-Event-ID`, so nothing is missed; only when the
 * server refused the stream (it closes for good) is a new one opened, after a pause — and then
 * everything is asked again once, because that new stream starts without the last id.
 */

/** Another feature's events on the stream: their names, what each does to the cache, and the refresh after missed events. */
export interface LiveEventHandlers {
  types: readonly string[];
  apply: (queryClient: QueryClient, type: string, data: unknown) => void;
  refresh: (queryClient: QueryClient) => Promise<void>;
}

export interface LiveEventOptions {
  /** A task change someone made (the viewer included), once written into the cache. */
  onChange: (change: LiveChange) => void;
  /** The stream opened (true) or dropped (false). */
  onStatus: (open: boolean) => void;
  handlers?: readonly LiveEventHandlers[];
}

const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

function parsed(event: MessageEvent<string>): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
}

/** Opens the tab's live connection; returns the function that closes it. */
export function connectLiveEvents(queryClient: QueryClient, viewer: Viewer, { onChange, onStatus, handlers = [] }: LiveEventOptions): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource | null = null;
  let closed = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let missedEvents = false;

  const refreshAll = () => {
    void refreshTasks(queryClient);
    for (const handler of handlers) void handler.refresh(queryClient);
  };

  const onTaskEvent = (type: TaskEventType) => (event: MessageEvent<string>) => {
    const data = parsed(event);
    if (!isTaskEventData(data)) return;
    const change = applyTaskEvent(queryClient, type, data, viewer);
    if (change) onChange(change);
  };

  const retryLater = () => {
    missedEvents = true;
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 60_000;
    failures++;
    retryTimer = setTimeout(() => {
      // An ordinary request first: if the session is gone, its 401 signs out (which closes this
      // connection for good) instead of retrying a stream that can never open.
      apiRequest('/users/me').then(
        () => {
          if (!closed) open();
        },
        () => {
          if (!closed) retryLater();
        },
      );
    }, delay);
  };

  function open() {
    const stream = new EventSource(`${API_BASE}/events`);
    source = stream;
    stream.addEventListener('open', () => {
      onStatus(true);
      failures = 0;
      if (missedEvents) {
        missedEvents = false;
        refreshAll();
      }
    });
    stream.addEventListener('error', () => {
      onStatus(false);
      // CONNECTING: the browser is already reconnecting with Last-Event-ID. CLOSED: the server
      // refused the stream (signed out, too many tabs, down); try again after a pause.
      if (stream.readyState === EventSource.CLOSED && !closed) retryLater();
    });
    for (const type of TASK_EVENTS) stream.addEventListener(type, onTaskEvent(type));
    for (const handler of handlers) {
      for (const type of handler.types) {
        stream.addEventListener(type, (event: MessageEvent<string>) => {
          handler.apply(queryClient, type, parsed(event));
        });
      }
    }
    stream.addEventListener('reset', refreshAll);
  }

  open();
  return () => {
    closed = true;
    onStatus(false);
    clearTimeout(retryTimer);
    source?.close();
  };
}
