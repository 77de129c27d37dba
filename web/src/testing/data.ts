import type { Task } from '#shared/schemas/tasks.ts';

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
    priority: 'normal',
    status: 'todo',
    description: '',
    createdAt: now,
    updatedAt: now,
    boardId: 'board-personal',
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
