import type { QueryClient } from '@tanstack/react-query';
import { LIVE_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { API_BASE, apiRequest } from '#web/lib/api-client.ts';
import { refreshTasks, taskKeys } from './query-keys.ts';
import { receiveRemoval, receiveTask, type Viewer } from './task-cache.ts';

/*
 * The tab's one live connection: `EventSource('/api/events')`, open while signed in. Each task
 * event is written into every cached list and count in place (task-cache.ts), never by
 * refetching; `event: reset` (the server could not replay what was missed) refreshes the task
 * queries once. The browser reconnects by itself after a network drop and resends
 * `Last-Event-ID`, so nothing is missed; only when the server refused the stream (it closes
 * for good) is a new one opened, after a pause — and then the lists are asked again once,
 * because that new stream starts without the last id.
 */

export const TASK_EVENTS = ['task.created', 'task.updated', 'task.deleted'] as const;
export type TaskEventType = (typeof TASK_EVENTS)[number];

export type TaskEventData =
  | { task: Task; by: Viewer }
  | { task: { _id: string; version: number }; by: Viewer };

/** Someone's change as the viewer should hear about it. */
export interface LiveChange {
  taskId: string;
  by: Viewer;
  /** Whether the viewer made it (in this tab or another). */
  own: boolean;
  message: string;
  /** Whether the task is still on the board (a card to highlight). */
  shown: boolean;
}

let streamOpen = false;

/** Whether the event stream is open now: cached task lists are then kept current by it. */
export const isLiveStreamOpen = (): boolean => streamOpen;

function describe(type: TaskEventType, before: Task | null, data: TaskEventData, viewer: Viewer): string {
  const who = data.by.fullName;
  if (type === 'task.deleted') return before ? LIVE_MESSAGES.removed(who, before.taskTitle) : LIVE_MESSAGES.removedUnknown(who);
  const task = data.task as Task;
  if (type === 'task.created' || !before) {
    return task.assignee === viewer.email ? LIVE_MESSAGES.assignedToYou(who, task.taskTitle) : LIVE_MESSAGES.created(who, task.taskTitle);
  }
  if (before.status !== task.status) return (task.status === 'done' ? LIVE_MESSAGES.completed : LIVE_MESSAGES.reopened)(who, task.taskTitle);
  if (before.assignee !== task.assignee) {
    return task.assignee === viewer.email ? LIVE_MESSAGES.assignedToYou(who, task.taskTitle) : LIVE_MESSAGES.reassigned(who, task.taskTitle, task.assignee);
  }
  return LIVE_MESSAGES.edited(who, task.taskTitle);
}

function isTaskEventData(value: unknown): value is TaskEventData {
  if (typeof value !== 'object' || value === null) return false;
  const { task, by } = value as { task?: { _id?: unknown }; by?: { fullName?: unknown; email?: unknown } };
  return typeof task?._id === 'string' && typeof by?.fullName === 'string' && typeof by.email === 'string';
}

/**
 * Writes one task event into the cache. Returns what changed, or `null` when the event was
 * not newer than what the board already shows (nothing happens then).
 */
export function applyTaskEvent(queryClient: QueryClient, type: TaskEventType, data: TaskEventData, viewer: Viewer): LiveChange | null {
  const id = data.task._id;
  const version = data.task.version;
  const before =
    type === 'task.deleted'
      ? receiveRemoval(queryClient, id, version, viewer)
      : receiveTask(queryClient, data.task as Task, viewer, { isNew: type === 'task.created' });
  if (before === false) return null;
  // A task page showing this task asks again for its activity and comments (the task itself
  // was written above).
  void queryClient.invalidateQueries({ queryKey: taskKeys.detail(id), predicate: (query) => query.queryKey.length > taskKeys.detail(id).length });
  return {
    taskId: id,
    by: data.by,
    own: data.by.email === viewer.email,
    message: describe(type, before, data, viewer),
    shown: type !== 'task.deleted',
  };
}

const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

/** Opens the tab's live connection; returns the function that closes it. */
export function connectLiveEvents(
  queryClient: QueryClient,
  viewer: Viewer,
  onChange: (change: LiveChange) => void,
  onStatus: (open: boolean) => void = () => undefined,
): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource | null = null;
  let closed = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let missedEvents = false;

  const onTaskEvent = (type: TaskEventType) => (event: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
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
      streamOpen = true;
      onStatus(true);
      failures = 0;
      if (missedEvents) {
        missedEvents = false;
        void refreshTasks(queryClient);
      }
    });
    stream.addEventListener('error', () => {
      streamOpen = false;
      onStatus(false);
      // CONNECTING: the browser is already reconnecting with Last-Event-ID. CLOSED: the server
      // refused the stream (signed out, too many tabs, down); try again after a pause.
      if (stream.readyState === EventSource.CLOSED && !closed) retryLater();
    });
    for (const type of TASK_EVENTS) stream.addEventListener(type, onTaskEvent(type));
    stream.addEventListener('reset', () => {
      void refreshTasks(queryClient);
    });
  }

  open();
  return () => {
    closed = true;
    streamOpen = false;
    clearTimeout(retryTimer);
    source?.close();
  };
}
