import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { makeTask } from '#web/testing/data.ts';
import { DEFAULT_FILTER, type BoardFilter } from './board-filter.ts';
import { applyTaskEvent } from './live-events.ts';
import { taskKeys, type TaskPages } from './query-keys.ts';
import type { TaskCounts } from './task-queries.ts';

const ME = { fullName: 'Bob Builder', email: 'bob@example.com' };
const ADA = { fullName: 'Ada Lovelace', email: 'ada@example.com' };

/** Tasks created one second apart, newest last in the array (so the list shows them reversed). */
function tasksAt(...overrides: Partial<Task>[]): Task[] {
  const start = Date.parse('2026-11-01T10:00:00.000Z');
  return overrides.map((o, i) => makeTask({ createdAt: new Date(start + i * 1000).toISOString(), ...o }));
}

const pages = (...chunks: [Task[], string | null][]): TaskPages => ({
  pages: chunks.map(([tasks, nextCursor]) => ({ tasks, nextCursor })),
  pageParams: chunks.map((_, i) => (i === 0 ? null : `c${i}`)),
});

function cache() {
  const client = new QueryClient();
  const list = (status: 'todo' | 'done', filter: Partial<BoardFilter> = {}) => taskKeys.list(status, { ...DEFAULT_FILTER, ...filter });
  const counts = (filter: Partial<BoardFilter> = {}) => taskKeys.counts({ ...DEFAULT_FILTER, ...filter });
  const titles = (key: readonly unknown[]) => client.getQueryData<TaskPages>(key)?.pages.flatMap((p) => p.tasks.map((t) => t.taskTitle));
  return { client, list, counts, titles, countsOf: (key: readonly unknown[]) => client.getQueryData<TaskCounts>(key) };
}

describe('applying live events to the cached board', () => {
  it('puts a created task into every list it belongs to, in order, and counts it once', () => {
    const { client, list, counts, titles, countsOf } = cache();
    const [older, newer] = tasksAt({ taskTitle: 'Older' }, { taskTitle: 'Newer', priority: 'urgent' });
    client.setQueryData(list('todo'), pages([[newer!, older!], null]));
    client.setQueryData(list('todo', { priority: 'urgent' }), pages([[newer!], null]));
    client.setQueryData(list('done'), pages([[], null]));
    client.setQueryData(counts(), { todo: 2, done: 0 });
    client.setQueryData(counts({ priority: 'urgent' }), { todo: 1, done: 0 });

    const created = makeTask({ taskTitle: 'Brand new', createdAt: '2026-11-02T00:00:00.000Z', priority: 'low', assignee: ME.email });
    const change = applyTaskEvent(client, 'task.created', { task: created, by: ADA }, ME);

    expect(titles(list('todo'))).toEqual(['Brand new', 'Newer', 'Older']);
    expect(titles(list('todo', { priority: 'urgent' }))).toEqual(['Newer']);
    expect(titles(list('done'))).toEqual([]);
    expect(countsOf(counts())).toEqual({ todo: 3, done: 0 });
    expect(countsOf(counts({ priority: 'urgent' }))).toEqual({ todo: 1, done: 0 });
    expect(change).toMatchObject({ taskId: created._id, own: false, message: 'Ada Lovelace assigned “Brand new” to you' });

    // The same event again (a replay) changes nothing.
    expect(applyTaskEvent(client, 'task.created', { task: created, by: ADA }, ME)).toBeNull();
    expect(countsOf(counts())).toEqual({ todo: 3, done: 0 });
  });

  it('moves a completed task between columns and adjusts the counts of every filter', () => {
    const { client, list, counts, titles, countsOf } = cache();
    const [a, b] = tasksAt({ taskTitle: 'Send the invoice', priority: 'high' }, { taskTitle: 'Other' });
    const done = makeTask({ taskTitle: 'Done before', status: 'done', createdAt: '2026-10-01T00:00:00.000Z' });
    client.setQueryData(list('todo'), pages([[b!, a!], null]));
    client.setQueryData(list('done'), pages([[done], null]));
    client.setQueryData(list('todo', { priority: 'high' }), pages([[a!], null]));
    client.setQueryData(counts(), { todo: 2, done: 1, overdue: 0 });
    client.setQueryData(counts({ priority: 'high' }), { todo: 1, done: 0 });

    const completed = { ...a!, status: 'done' as const, ...{ version: 2 } };
    const change = applyTaskEvent(client, 'task.updated', { task: completed, by: ADA }, ME);

    expect(titles(list('todo'))).toEqual(['Other']);
    expect(titles(list('done'))).toEqual(['Send the invoice', 'Done before']);
    expect(titles(list('todo', { priority: 'high' }))).toEqual([]);
    expect(countsOf(counts())).toEqual({ todo: 1, done: 2, overdue: 0 });
    expect(countsOf(counts({ priority: 'high' }))).toEqual({ todo: 0, done: 1 });
    expect(change?.message).toBe('Ada Lovelace completed “Send the invoice”');
  });

  it('ignores an event whose version is not newer than the cached copy', () => {
    const { client, list, counts, titles, countsOf } = cache();
    const [task] = tasksAt({ taskTitle: 'Current', ...{ version: 5 } });
    client.setQueryData(list('todo'), pages([[task!], null]));
    client.setQueryData(counts(), { todo: 1, done: 0 });

    const stale = { ...task!, taskTitle: 'Stale', status: 'done' as const, ...{ version: 4 } };
    expect(applyTaskEvent(client, 'task.updated', { task: stale, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.updated', { task: { ...stale, ...{ version: 5 } }, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.deleted', { task: { _id: task!._id, version: 4 }, by: ADA }, ME)).toBeNull();
    expect(titles(list('todo'))).toEqual(['Current']);
    expect(countsOf(counts())).toEqual({ todo: 1, done: 0 });
  });

  it('removes a deleted (or reassigned-away) task everywhere and says who did it', () => {
    const { client, list, counts, titles, countsOf } = cache();
    const [keep, gone] = tasksAt({ taskTitle: 'Keep' }, { taskTitle: 'Gone soon', priority: 'low' });
    client.setQueryData(list('todo'), pages([[gone!], 'c1'], [[keep!], null]));
    client.setQueryData(list('todo', { priority: 'low' }), pages([[gone!], null]));
    client.setQueryData(counts(), { todo: 2, done: 0 });
    client.setQueryData(counts({ priority: 'low' }), { todo: 1, done: 0 });

    const change = applyTaskEvent(client, 'task.deleted', { task: { _id: gone!._id, version: 2 }, by: ADA }, ME);

    expect(titles(list('todo'))).toEqual(['Keep']);
    expect(titles(list('todo', { priority: 'low' }))).toEqual([]);
    expect(countsOf(counts())).toEqual({ todo: 1, done: 0 });
    expect(countsOf(counts({ priority: 'low' }))).toEqual({ todo: 0, done: 0 });
    expect(change).toMatchObject({ message: 'Ada Lovelace removed “Gone soon” from your board', shown: false });
    // Once removed, the replayed deletion and an older copy change nothing.
    expect(applyTaskEvent(client, 'task.deleted', { task: { _id: gone!._id, version: 2 }, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.updated', { task: { ...gone!, ...{ version: 2 } }, by: ADA }, ME)).toBeNull();
    expect(titles(list('todo'))).toEqual(['Keep']);
  });

  it('leaves a task whose place is past the loaded pages to the next page', () => {
    const { client, list, titles } = cache();
    const [oldest, middle, newest] = tasksAt({ taskTitle: 'Oldest' }, { taskTitle: 'Middle' }, { taskTitle: 'Newest' });
    client.setQueryData(list('todo'), pages([[newest!, middle!], 'c1']));
    // Reopened: an old task comes back to the to-do column, older than every loaded card.
    applyTaskEvent(client, 'task.updated', { task: { ...oldest!, ...{ version: 3 } }, by: ADA }, ME);
    expect(titles(list('todo'))).toEqual(['Newest', 'Middle']);
    // On the last page it is appended.
    client.setQueryData(list('todo'), pages([[newest!, middle!], null]));
    applyTaskEvent(client, 'task.updated', { task: { ...oldest!, ...{ version: 4 } }, by: ADA }, ME);
    expect(titles(list('todo'))).toEqual(['Newest', 'Middle', 'Oldest']);
  });

  it('keeps views, searches and sorts right', () => {
    const { client, list, counts, titles, countsOf } = cache();
    const [mine, theirs] = tasksAt({ taskTitle: 'Mine low', priority: 'low' }, { taskTitle: 'Theirs normal', assignee: 'carol@example.com' });
    client.setQueryData(list('todo', { view: 'assigned-to-me' }), pages([[mine!], null]));
    client.setQueryData(list('todo', { sort: 'priority' }), pages([[theirs!, mine!], null]));
    client.setQueryData(list('todo', { q: 'invoice' }), pages([[], null]));
    client.setQueryData(counts({ view: 'assigned-to-me' }), { todo: 1, done: 0 });

    // Reassigned to me and raised to urgent, with a title the search finds.
    const changed = { ...theirs!, assignee: ME.email, priority: 'urgent' as const, taskTitle: 'Pay the Invoice', ...{ version: 2 } };
    const change = applyTaskEvent(client, 'task.updated', { task: changed, by: ADA }, ME);

    expect(titles(list('todo', { view: 'assigned-to-me' }))).toEqual(['Pay the Invoice', 'Mine low']);
    expect(titles(list('todo', { sort: 'priority' }))).toEqual(['Pay the Invoice', 'Mine low']);
    expect(titles(list('todo', { q: 'invoice' }))).toEqual(['Pay the Invoice']);
    expect(countsOf(counts({ view: 'assigned-to-me' }))).toEqual({ todo: 2, done: 0 });
    expect(change?.message).toBe('Ada Lovelace assigned “Pay the Invoice” to you');
  });

  it('marks the viewer’s own changes as their own', () => {
    const { client, list } = cache();
    const [task] = tasksAt({ taskTitle: 'Mine' });
    client.setQueryData(list('todo'), pages([[task!], null]));
    const change = applyTaskEvent(client, 'task.updated', { task: { ...task!, priority: 'high', ...{ version: 2 } }, by: ME }, ME);
    expect(change).toMatchObject({ own: true, message: 'Bob Builder edited “Mine”' });
  });
});
