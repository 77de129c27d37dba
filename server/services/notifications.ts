import type { NotificationType } from '#shared/schemas/notifications.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { message, text, type Translatable } from '#shared/i18n.ts';
import { DEFAULT_LANGUAGE } from '#shared/languages.ts';
import { newId } from '../db/ids.ts';
import { translate, type ReaderLanguage } from '../i18n/translate.ts';
import type { NotificationAbout, PlannedNotification } from '../repositories/notifications-repository.ts';

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
const PUSH_TITLES: Record<NotificationType, Translatable> = {
  assigned: text('Assigned to you'),
  mentioned: text('You were mentioned'),
  commented: text('New comment'),
  completed: text('Task completed'),
  due_soon: text('Due soon'),
  overdue: text('Overdue'),
  board_added: text('Added to a board'),
};

/** What a notification says, as a message. */
function textMessage({ type, by, task, board }: NotificationAbout): Translatable {
  const who = by?.fullName ?? '';
  const title = task?.taskTitle ?? '';
  switch (type) {
    case 'assigned':
      return message('{who} assigned you “{title}”', { who, title });
    case 'mentioned':
      return message('{who} mentioned you in a comment on “{title}”', { who, title });
    case 'commented':
      return message('{who} commented on “{title}”', { who, title });
    case 'completed':
      return message('{who} completed “{title}”', { who, title });
    case 'due_soon':
      return message('“{title}” is due within 24 hours', { title });
    case 'overdue':
      return message('“{title}” is overdue', { title });
    case 'board_added':
      return message('{who} added you to the board “{board}”', { who, board: board?.name ?? '' });
  }
}

/**
 * What a notification says, in plain words, in its reader's language: the inbox (GET and live
 * frames) and pushes write it for the person reading; the stored text is the English one.
 */
export function notificationText(about: NotificationAbout, language: ReaderLanguage = DEFAULT_LANGUAGE): string {
  return translate(language, textMessage(about));
}

/** The heading of a pushed notification, in its reader's language. */
export function pushTitle(type: NotificationType, language: ReaderLanguage = DEFAULT_LANGUAGE): string {
  return translate(language, PUSH_TITLES[type]);
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
  const text = notificationText({ type: about.type, by: about.by, task, board });
  const url = task !== null ? `/tasks/${task._id}` : board !== null ? `/boards/${board._id}` : '/tasks';
  const by = about.by === null ? null : { fullName: about.by.fullName, email: about.by.email };
  return [...new Set(about.to)]
    .filter((to) => to !== by?.email)
    .map((to) => {
      const id = newId();
      const push = { title: pushTitle(about.type), body: text, url, id, about: { type: about.type, by, task, board } };
      return { id, type: about.type, to, text, task, board, by, at: about.at, push };
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
