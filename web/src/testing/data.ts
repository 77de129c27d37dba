import type { Task } from '#shared/schemas/tasks.ts';
import type { Board, Member } from '#shared/schemas/boards.ts';
import type { Notification } from '#shared/schemas/notifications.ts';

let sequence = 0;

/** A task as the API returns it; every call makes a unique one. */
export function makeTask(overrides: Partial<Task> = {}): Task {
  sequence++;
  const now = new Date().toISOString();
  const task: Task = {
    _id: `task-${sequence}`,
    version: 1,
    workTitle: '',
    taskTitle: `Task number ${sequence}`,
    assignee: 'bob@example.com',
    assignor: 'Ada Lovelace',
    assignorEmail: 'ada@example.com',
    deadline: null,
    startAt: null,
    priority: 'normal',
    status: 'todo',
    description: '',
    createdAt: now,
    updatedAt: now,
    boardId: 'board-personal',
    labels: [],
    checklist: { done: 0, total: 0 },
    repeat: null,
    columnId: 'column-todo',
    position: `a${String(sequence).padStart(6, '0')}`,
    attachmentCount: 0,
    cover: null,
  };
  return { ...task, ...overrides };
}

export const ADA = { fullName: 'Ada Lovelace', email: 'ada@example.com' };

export function meAnswer(user = ADA) {
  return { status: 'success', data: { user } };
}

export function listAnswer(tasks: Task[], nextCursor: string | null = null) {
  return { status: 'success', results: tasks.length, data: { tasks, nextCursor } };
}

export function countsAnswer(todo: number, done: number) {
  return { status: 'success', data: { counts: { todo, done } } };
}

/** A board as GET /api/boards returns it; every call makes a unique one. */
export function makeBoard(overrides: Partial<Board> = {}): Board {
  sequence++;
  const now = new Date().toISOString();
  return {
    _id: `board-${sequence}`,
    name: `Board ${sequence}`,
    description: '',
    personal: false,
    role: 'admin',
    memberCount: 1,
    counts: { todo: 0, done: 0, overdue: 0 },
    columns: [
      { _id: `column-todo-${sequence}`, name: 'Tasks To Do', category: 'todo', wipLimit: null, position: 'a0' },
      { _id: `column-done-${sequence}`, name: 'Completed', category: 'done', wipLimit: null, position: 'a1' },
    ],
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export const PERSONAL_BOARD = makeBoard({ _id: 'board-personal', name: 'Personal', personal: true });

export function makeMember(overrides: Partial<Member> = {}): Member {
  return {
    email: 'ada@example.com',
    fullName: 'Ada Lovelace',
    role: 'admin',
    status: 'active',
    addedAt: new Date().toISOString(),
    addedBy: ADA,
    ...overrides,
  };
}

export function boardsAnswer(boards: Board[]) {
  return { status: 'success', data: { boards } };
}

export function boardAnswer(board: Board, members: Member[] = [makeMember()]) {
  return { status: 'success', data: { board, members } };
}

/** A notification as GET /api/notifications returns it (unread, about a task); every call makes a unique one. */
export function makeNotification(overrides: Partial<Notification> = {}): Notification {
  sequence++;
  return {
    _id: `notification-${sequence}`,
    type: 'assigned',
    text: `Ada Lovelace assigned you a task (${sequence})`,
    task: { _id: `task-${sequence}`, taskTitle: `Task number ${sequence}` },
    // A task on someone's personal board names no board (the server sends null then).
    board: null,
    by: ADA,
    at: new Date(Date.now() - sequence * 60_000).toISOString(),
    readAt: null,
    ...overrides,
  };
}

export function notificationsAnswer(notifications: Notification[], unreadCount: number, nextCursor: string | null = null) {
  return { status: 'success', data: { notifications, unreadCount, nextCursor } };
}
