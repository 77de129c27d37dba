import type { QueryClient } from '@tanstack/react-query';
import type { TaskStatus } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { TaskCounts } from './task-queries.ts';
import { isPatchable, matchesPriority, type BoardFilter } from './board-filter.ts';
import { refreshTasks, taskKeys, type TaskPages } from './query-keys.ts';

/**
 * After the server has confirmed a change, patch every cached column and count with it at
 * once (the board answers instantly, also for filters not on screen), then refetch the truth
 * (`refreshTasks`). Nothing here guesses: it only applies what the server acknowledged.
 */

interface ListFilter extends BoardFilter {
  status: TaskStatus;
}

function patchLists(queryClient: QueryClient, patch: (pages: TaskPages, filter: ListFilter) => TaskPages): void {
  for (const [key, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    const filter = key[2] as ListFilter | undefined;
    if (data && filter) queryClient.setQueryData<TaskPages>(key, patch(data, filter));
  }
}

function patchCounts(queryClient: QueryClient, delta: (filter: BoardFilter) => TaskCounts): void {
  for (const [key, data] of queryClient.getQueriesData<TaskCounts>({ queryKey: [...taskKeys.all, 'counts'] })) {
    const filter = key[2] as BoardFilter | undefined;
    // Counts of a view or a search are left to the refetch (membership is the server's call).
    if (!data || !filter || !isPatchable({ ...filter, sort: 'newest' })) continue;
    const d = delta(filter);
    if (d.todo !== 0 || d.done !== 0) {
      queryClient.setQueryData<TaskCounts>(key, { ...data, todo: Math.max(0, data.todo + d.todo), done: Math.max(0, data.done + d.done) });
    }
  }
}

function contribution(task: Task | null, filter: BoardFilter): TaskCounts {
  const counts = { todo: 0, done: 0 };
  if (task && matchesPriority(task, filter.priority)) counts[task.status] = 1;
  return counts;
}

const withoutTask = (pages: TaskPages, id: string): TaskPages => ({
  ...pages,
  pages: pages.pages.map((page) => (page.tasks.some((t) => t._id === id) ? { ...page, tasks: page.tasks.filter((t) => t._id !== id) } : page)),
});

/** A task changed from `before` to `after` (`null`: it was created / deleted). */
export function applyTaskChange(queryClient: QueryClient, before: Task | null, after: Task | null): Promise<void> {
  if (after) queryClient.setQueryData(taskKeys.detail(after._id), after);
  patchLists(queryClient, (pages, filter) => {
    const belongs = after !== null && after.status === filter.status && matchesPriority(after, filter.priority);
    if (!after || !belongs) return before ? withoutTask(pages, before._id) : pages;
    const present = pages.pages.some((page) => page.tasks.some((t) => t._id === after._id));
    if (present) {
      return { ...pages, pages: pages.pages.map((page) => ({ ...page, tasks: page.tasks.map((t) => (t._id === after._id ? after : t)) })) };
    }
    // Newest first: a new task goes on top. One that moved here is placed by the refetch, as is
    // any task in a view, a search or another order (the server decides membership and place).
    if (before === null && pages.pages[0] && isPatchable(filter)) {
      const [first, ...rest] = pages.pages;
      return { ...pages, pages: [{ ...first, tasks: [after, ...first.tasks] }, ...rest] };
    }
    return pages;
  });
  patchCounts(queryClient, (filter) => {
    const old = contribution(before, filter);
    const now = contribution(after, filter);
    return { todo: now.todo - old.todo, done: now.done - old.done };
  });
  return refreshTasks(queryClient);
}
