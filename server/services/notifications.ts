import type { NotificationType } from '#shared/schemas/notifications.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { PlannedNotification } from '../repositories/notifications-repository.ts';

/*
 * Who is told what in the app, and in which words. These functions only plan: the rows are
 * written by the change that causes them, in its own statement or transaction
 * (repositories/notifications-repository.ts), which also keeps a notification from anyone
 * without an account, anyone who turned its type off in the app, and (for a task) anyone who
 * does not see the task. Nobody is ever told of their own action.
 */

interface Person {
  fullName: string;
  email: string;
}
type TaskRef = Pick<Task, '_id' | 'taskTitle'>;

/** The heading of a pushed notification (its body is the notification's text). */
const PUSH_TITLES: Record<NotificationType, string> = {
  assigned: 'Assigned to you',
  mentioned: 'You were mentioned',
  commented: 'New comment',
  completed: 'Task completed',
  due_soon: 'Due soon',
  overdue: 'Overdue',
  board_added: 'Added to a board',
};

const quoted = (title: string) => `\u201c${title}\u201d`;

/** What a notification says, in plain words. */
function textOf(type: NotificationType, by: Person | null, task: TaskRef | null, board: { name: string } | null): string {
  const who = by?.fullName ?? '';
  const title = quoted(task?.taskTitle ?? '');
  switch (type) {
    case 'assigned':
      return `${who} assigned you ${title}`;
    case 'mentioned':
      return `${who} mentioned you in a comment on ${title}`;
    case 'commented':
      return `${who} commented on ${title}`;
    case 'completed':
      return `${who} completed ${title}`;
    case 'due_soon':
      return `${title} is due within 24 hours`;
    case 'overdue':
      return `${title} is overdue`;
    case 'board_added':
      return `${who} added you to the board ${quoted(board?.name ?? '')}`;
  }
}

interface About {
  type: NotificationType;
  /** Addresses to tell (duplicates and the actor's own address are left out). */
  to: readonly string[];
  /** Who did it; null for reminders. */
  by: Person | null;
  task?: TaskRef;
  board?: { _id: string; name: string };
  at: string;
}

/** One planned notification per address of `about.to`, never to `about.by` themself. */
export function plan(about: About): PlannedNotification[] {
  const task = about.task === undefined ? null : { _id: about.task._id, taskTitle: about.task.taskTitle };
  const board = about.board ?? null;
  const text = textOf(about.type, about.by, task, board);
  const url = task !== null ? `/tasks/${task._id}` : board !== null ? `/boards/${board._id}` : '/tasks';
  const by = about.by === null ? null : { fullName: about.by.fullName, email: about.by.email };
  return [...new Set(about.to)]
    .filter((to) => to !== by?.email)
    .map((to) => {
      const id = newId();
      return { id, type: about.type, to, text, task, board, by, at: about.at, push: { title: PUSH_TITLES[about.type], body: text, url, id } };
    });
}

/**
 * A task write's notifications: `assigned` to a new assignee (on create or reassign) and
 * `completed` to the creator when the task becomes done; never to the actor.
 */
export function taskWriteNotifications(change: { before: Task | undefined; after: Task | undefined; actor: Person; now: Date }): PlannedNotification[] {
  const { before, after, actor } = change;
  if (after === undefined) return [];
  const at = change.now.toISOString();
  const planned: PlannedNotification[] = [];
  if (before?.assignee !== after.assignee) planned.push(...plan({ type: 'assigned', to: [after.assignee], by: actor, task: after, at }));
  if (before !== undefined && before.status !== 'done' && after.status === 'done') {
    planned.push(...plan({ type: 'completed', to: [after.assignorEmail], by: actor, task: after, at }));
  }
  return planned;
}

/**
 * A new comment's `commented` notifications: to the task's creator and assignee, except its
 * author and anyone the comment mentions (they are told `mentioned` instead).
 */
export function commentNotifications(input: { author: Person; task: Task; mentions: readonly string[]; at: string }): PlannedNotification[] {
  const { task, mentions } = input;
  const to = [task.assignorEmail, task.assignee].filter((email) => !mentions.includes(email));
  return plan({ type: 'commented', to, by: input.author, task, at: input.at });
}
