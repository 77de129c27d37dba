import type { QueryClient } from '@tanstack/react-query';
import { LIVE_MESSAGES } from '#shared/live-messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Viewer } from './live-board-context.ts';
import { refreshTaskDetails } from './query-keys.ts';
import { receiveRemoval, receiveTask } from './task-receipts.ts';
import { i18n } from '@lingui/core';
import type { Message } from '#shared/i18n.ts';

/** The task events of the live stream, written into the cache (task-receipts.ts). */

export const TASK_EVENTS = ['task.created', 'task.updated', 'task.deleted'] as const;
export type TaskEventType = (typeof TASK_EVENTS)[number];

export type TaskEventData = { task: Task; by: Viewer } | { task: { _id: string; version: number }; by: Viewer };

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

function describe(type: TaskEventType, before: Task | null, data: TaskEventData, viewer: Viewer): Message {
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

export function isTaskEventData(value: unknown): value is TaskEventData {
  if (typeof value !== 'object' || value === null) return false;
  const { task, by } = value as { task?: { _id?: unknown; version?: unknown }; by?: { fullName?: unknown; email?: unknown } };
  return typeof task?._id === 'string' && typeof task.version === 'number' && typeof by?.fullName === 'string' && typeof by.email === 'string';
}

/**
 * Writes one task event into the cache. Returns what changed, or `null` when the event was
 * not newer than what the board already shows (nothing happens then).
 */
export function applyTaskEvent(queryClient: QueryClient, type: TaskEventType, data: TaskEventData, viewer: Viewer): LiveChange | null {
  const id = data.task._id;
  const before =
    type === 'task.deleted' ? receiveRemoval(queryClient, id, data.task.version) : receiveTask(queryClient, data.task as Task, { isNew: type === 'task.created' });
  if (before === false) return null;
  refreshTaskDetails(queryClient, id);
  return {
    taskId: id,
    by: data.by,
    own: data.by.email === viewer.email,
    message: i18n._(describe(type, before, data, viewer)),
    shown: type !== 'task.deleted',
  };
}
