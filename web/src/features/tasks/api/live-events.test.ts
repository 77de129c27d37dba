import { InfiniteQueryObserver, QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Task, TaskCounts } from '#shared/schemas/tasks.ts';
import { makeTask } from '#web/testing/data.ts';
import { DEFAULT_FILTER, type BoardFilter } from './board-filter.ts';
import { refreshBoardTasks, REFRESH_DELAY_MS } from './list-refresh.ts';
import { taskKeys, type TaskPages } from './query-keys.ts';
import { applyTaskEvent } from './task-events.ts';

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
  const titles = (key: QueryKey) => client.getQueryData<TaskPages>(key)?.pages.flatMap((p) => p.tasks.map((t) => t.taskTitle));
  /** Whether the key was marked to be asked again (after the gathering delay). */
  const askedAgain = (key: QueryKey) => client.getQueryState(key)?.isInvalidated ?? false;
  /** A list on screen: an observer whose every fetch answers `answer()` and is counted. */
  const onScreen = (key: QueryKey, answer: () => Task[]) => {
    const fetches = { count: 0 };
    const observer = new InfiniteQueryObserver(client, {
      queryKey: key,
      queryFn: () => {
        fetches.count++;
        return Promise.resolve({ tasks: answer(), nextCursor: null });
      },
      initialPageParam: null as string | null,
      getNextPageParam: () => undefined,
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    return { fetches, unsubscribe };
  };
  return { client, list, counts, titles, askedAgain, onScreen, countsOf: (key: QueryKey) => client.getQueryData<TaskCounts>(key) };
}

const settle = () => vi.advanceTimersByTimeAsync(REFRESH_DELAY_MS * 2);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('applying live events to the cached board', () => {
  it('changes a task where it is shown, and asks again only the lists whose filter reads a changed field', async () => {
    const { client, list, counts, titles, askedAgain } = cache();
    const [other, task] = tasksAt({ taskTitle: 'Other' }, { taskTitle: 'Pay the invoice', priority: 'high', description: 'Old words' });
    client.setQueryData(list('todo'), pages([[task!, other!], null]));
    client.setQueryData(list('todo', { priority: 'high' }), pages([[task!], null]));
    client.setQueryData(list('todo', { sort: 'deadline' }), pages([[other!, task!], null]));
    client.setQueryData(list('todo', { q: 'invoice' }), pages([[task!], null]));
    client.setQueryData(counts(), { todo: 2, done: 0, overdue: 0 });
    client.setQueryData(counts({ q: 'invoice' }), { todo: 1, done: 0, overdue: 0 });

    const change = applyTaskEvent(client, 'task.updated', { task: { ...task!, description: 'New words', version: 2 }, by: ADA }, ME);
    await settle();

    const descriptions = (key: QueryKey) => client.getQueryData<TaskPages>(key)?.pages[0]?.tasks.map((t) => t.description);
    expect(descriptions(list('todo'))).toEqual(['New words', other!.description]);
    expect(descriptions(list('todo', { priority: 'high' }))).toEqual(['New words']);
    expect(titles(list('todo', { sort: 'deadline' }))).toEqual(['Other', 'Pay the invoice']);
    // Only the search reads the description: only its list and count are asked again.
    expect(descriptions(list('todo', { q: 'invoice' }))).toEqual(['New words']);
    expect(askedAgain(list('todo', { q: 'invoice' }))).toBe(true);
    expect(askedAgain(counts({ q: 'invoice' }))).toBe(true);
    for (const key of [list('todo'), list('todo', { priority: 'high' }), list('todo', { sort: 'deadline' }), counts()]) expect(askedAgain(key)).toBe(false);
    expect(change?.message).toBe('Ada Lovelace edited “Pay the invoice”');
  });

  it('leaves the server to decide a search: a case the server folds differently is refetched, not judged here', async () => {
    const { client, list, titles, onScreen } = cache();
    const [task] = tasksAt({ taskTitle: 'Café au lait' });
    const key = list('todo', { q: 'é' });
    client.setQueryData(key, pages([[task!], null]));
    // SQLite's lower() folds ASCII only: "CAFÉ" no longer contains "é" there, though JavaScript says it does.
    const server = onScreen(key, () => []);

    applyTaskEvent(client, 'task.updated', { task: { ...task!, taskTitle: 'CAFÉ AU LAIT', version: 2 }, by: ADA }, ME);
    expect(titles(key)).toEqual(['CAFÉ AU LAIT']);
    await settle();
    expect(server.fetches.count).toBe(1);
    expect(titles(key)).toEqual([]);
    server.unsubscribe();
  });

  it('takes a completed task out of its column and moves it between the badges at once; Completed is asked again', async () => {
    const { client, list, counts, titles, askedAgain, countsOf } = cache();
    const [a, b] = tasksAt({ taskTitle: 'Send the invoice', priority: 'high' }, { taskTitle: 'Other' });
    const done = makeTask({ taskTitle: 'Done before', status: 'done', createdAt: '2026-10-01T00:00:00.000Z' });
    client.setQueryData(list('todo'), pages([[b!, a!], null]));
    client.setQueryData(list('done'), pages([[done], null]));
    client.setQueryData(list('todo', { priority: 'high' }), pages([[a!], null]));
    client.setQueryData(counts(), { todo: 2, done: 1, overdue: 0 });
    client.setQueryData(counts({ priority: 'high' }), { todo: 1, done: 0, overdue: 0 });
    // No list of this filter is cached: nothing says the server counted the task there.
    client.setQueryData(counts({ q: 'invoice' }), { todo: 1, done: 0, overdue: 0 });

    const change = applyTaskEvent(client, 'task.updated', { task: { ...a!, status: 'done', version: 2 }, by: ADA }, ME);
    expect(titles(list('todo'))).toEqual(['Other']);
    expect(titles(list('todo', { priority: 'high' }))).toEqual([]);
    // Where it goes in Completed is the server's answer.
    expect(titles(list('done'))).toEqual(['Done before']);
    expect(countsOf(counts())).toEqual({ todo: 1, done: 2, overdue: 0 });
    expect(countsOf(counts({ priority: 'high' }))).toEqual({ todo: 0, done: 1, overdue: 0 });
    await settle();
    expect(askedAgain(list('done'))).toBe(true);
    expect(askedAgain(list('todo'))).toBe(false);
    // Certain, and without a deadline nothing is overdue: not asked again.
    expect(askedAgain(counts())).toBe(false);
    expect(askedAgain(counts({ q: 'invoice' }))).toBe(true);
    expect(change?.message).toBe('Ada Lovelace completed “Send the invoice”');
  });

  it('asks for the overdue count again when the completed task has a deadline', async () => {
    const { client, list, counts, askedAgain, countsOf } = cache();
    const [task] = tasksAt({ taskTitle: 'Late', deadline: '2026-10-01T00:00:00.000Z' });
    client.setQueryData(list('todo'), pages([[task!], null]));
    client.setQueryData(counts(), { todo: 1, done: 0, overdue: 1 });
    applyTaskEvent(client, 'task.updated', { task: { ...task!, status: 'done', version: 2 }, by: ADA }, ME);
    expect(countsOf(counts())).toEqual({ todo: 0, done: 1, overdue: 1 });
    await settle();
    expect(askedAgain(counts())).toBe(true);
  });

  it('asks the lists of its column for a created task instead of placing it, and ignores the replay', async () => {
    const { client, list, counts, titles, askedAgain } = cache();
    const [older] = tasksAt({ taskTitle: 'Older' });
    client.setQueryData(list('todo'), pages([[older!], null]));
    client.setQueryData(list('done'), pages([[], null]));
    client.setQueryData(counts(), { todo: 1, done: 0, overdue: 0 });

    const created = makeTask({ taskTitle: 'Brand new', createdAt: '2026-11-02T00:00:00.000Z', assignee: ME.email });
    const change = applyTaskEvent(client, 'task.created', { task: created, by: ADA }, ME);
    expect(titles(list('todo'))).toEqual(['Older']);
    await settle();
    expect(askedAgain(list('todo'))).toBe(true);
    expect(askedAgain(counts())).toBe(true);
    expect(askedAgain(list('done'))).toBe(false);
    expect(change).toMatchObject({ taskId: created._id, own: false, message: 'Ada Lovelace assigned “Brand new” to you' });
    expect(applyTaskEvent(client, 'task.created', { task: created, by: ADA }, ME)).toBeNull();
  });

  it('ignores an event whose version is not newer than the cached copy', async () => {
    const { client, list, counts, titles, askedAgain } = cache();
    const [task] = tasksAt({ taskTitle: 'Current', version: 5 });
    client.setQueryData(list('todo'), pages([[task!], null]));
    client.setQueryData(counts(), { todo: 1, done: 0, overdue: 0 });

    const stale = { ...task!, taskTitle: 'Stale', status: 'done' as const, version: 4 };
    expect(applyTaskEvent(client, 'task.updated', { task: stale, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.updated', { task: { ...stale, version: 5 }, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.deleted', { task: { _id: task!._id, version: 4 }, by: ADA }, ME)).toBeNull();
    await settle();
    expect(titles(list('todo'))).toEqual(['Current']);
    expect(askedAgain(counts())).toBe(false);
  });

  it('removes a deleted (or reassigned-away) task everywhere at once and says who did it', async () => {
    const { client, list, counts, titles, askedAgain, countsOf } = cache();
    const [keep, gone] = tasksAt({ taskTitle: 'Keep' }, { taskTitle: 'Gone soon', priority: 'low' });
    client.setQueryData(list('todo'), pages([[gone!], 'c1'], [[keep!], null]));
    client.setQueryData(list('todo', { priority: 'low' }), pages([[gone!], null]));
    client.setQueryData(counts(), { todo: 2, done: 0, overdue: 0 });

    const change = applyTaskEvent(client, 'task.deleted', { task: { _id: gone!._id, version: 2 }, by: ADA }, ME);
    expect(titles(list('todo'))).toEqual(['Keep']);
    expect(titles(list('todo', { priority: 'low' }))).toEqual([]);
    expect(countsOf(counts())).toEqual({ todo: 1, done: 0, overdue: 0 });
    expect(change).toMatchObject({ message: 'Ada Lovelace removed “Gone soon” from your board', shown: false });
    await settle();
    expect(askedAgain(counts())).toBe(false);
    expect(askedAgain(list('todo'))).toBe(false);
    // A task no cached list held: its counts are the server's to say.
    client.setQueryData(counts({ view: 'created-by-me' }), { todo: 3, done: 0, overdue: 0 });
    applyTaskEvent(client, 'task.deleted', { task: { _id: 'unseen', version: 1 }, by: ADA }, ME);
    await settle();
    expect(askedAgain(counts({ view: 'created-by-me' }))).toBe(true);
    // Once removed, the replayed deletion and an older copy change nothing.
    expect(applyTaskEvent(client, 'task.deleted', { task: { _id: gone!._id, version: 2 }, by: ADA }, ME)).toBeNull();
    expect(applyTaskEvent(client, 'task.updated', { task: { ...gone!, version: 2 }, by: ADA }, ME)).toBeNull();
    expect(titles(list('todo'))).toEqual(['Keep']);
  });

  it('gathers a burst of events into one request per list on screen, and none for the lists off screen', async () => {
    const { client, list, askedAgain, onScreen } = cache();
    const tasks = tasksAt(...Array.from({ length: 50 }, (_, i) => ({ taskTitle: `Task ${i}` })));
    client.setQueryData(list('todo', { q: 'task' }), pages([tasks, null]));
    client.setQueryData(list('todo', { q: 'other' }), pages([[], null]));
    const shown = onScreen(list('todo', { q: 'task' }), () => tasks);

    for (const task of tasks) applyTaskEvent(client, 'task.updated', { task: { ...task, taskTitle: `${task.taskTitle}!`, version: 2 }, by: ADA }, ME);
    await settle();
    expect(shown.fetches.count).toBe(1);
    // Off screen: marked, asked again when shown.
    expect(askedAgain(list('todo', { q: 'other' }))).toBe(true);
    shown.unsubscribe();
  });

  it('holds the refetches while a write of this tab is under way, and sends them once it is answered', async () => {
    const { client, list, onScreen } = cache();
    const [task] = tasksAt({ taskTitle: 'Invoice' });
    client.setQueryData(list('todo', { q: 'invoice' }), pages([[task!], null]));
    const shown = onScreen(list('todo', { q: 'invoice' }), () => [task!]);
    let answer: () => void = () => undefined;
    const write = client
      .getMutationCache()
      .build(client, { mutationFn: () => new Promise<void>((resolve) => (answer = resolve)) })
      .execute(undefined);

    applyTaskEvent(client, 'task.updated', { task: { ...task!, taskTitle: 'Invoice!', version: 2 }, by: ADA }, ME);
    await settle();
    await settle();
    expect(shown.fetches.count).toBe(0);
    answer();
    await write;
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.fetches.count).toBe(1);
    shown.unsubscribe();
  });

  it('marks the viewer’s own changes as their own', () => {
    const { client, list } = cache();
    const [task] = tasksAt({ taskTitle: 'Mine' });
    client.setQueryData(list('todo'), pages([[task!], null]));
    const change = applyTaskEvent(client, 'task.updated', { task: { ...task!, priority: 'high', version: 2 }, by: ME }, ME);
    expect(change).toMatchObject({ own: true, message: 'Bob Builder edited “Mine”' });
  });
  it('asks again, once a board’s labels changed, only what may show that board’s tasks; a label filter reads the labels', async () => {
    const { client, list, counts, askedAgain } = cache();
    const [onA, onB] = tasksAt({ taskTitle: 'On A', boardId: 'a', labels: [{ _id: 'l1', name: 'Bug', color: 'red' }] }, { taskTitle: 'On B', boardId: 'b' });
    for (const key of [list('todo', { board: 'a' }), list('todo', { board: 'a', label: 'l1' }), list('todo'), list('todo', { board: 'b' })]) {
      client.setQueryData(key, pages([[key === list('todo', { board: 'b' }) ? onB! : onA!], null]));
    }
    client.setQueryData(counts({ board: 'a' }), { todo: 1, done: 0 });
    client.setQueryData(counts({ board: 'b' }), { todo: 1, done: 0 });
    client.setQueryData(taskKeys.detail(onA!._id), onA);
    client.setQueryData(taskKeys.detail(onB!._id), onB);
    refreshBoardTasks(client, 'a');
    await settle();
    expect([list('todo', { board: 'a' }), list('todo', { board: 'a', label: 'l1' }), list('todo'), counts({ board: 'a' }), taskKeys.detail(onA!._id)].map(askedAgain)).toEqual([true, true, true, true, true]);
    expect([list('todo', { board: 'b' }), counts({ board: 'b' }), taskKeys.detail(onB!._id)].map(askedAgain)).toEqual([false, false, false]);

    // A task's labels changed: a list filtered by a label is asked again; one without is not.
    const fresh = cache();
    fresh.client.setQueryData(fresh.list('todo', { board: 'a', label: 'l1' }), pages([[onA!], null]));
    fresh.client.setQueryData(fresh.list('todo', { board: 'a' }), pages([[onA!], null]));
    applyTaskEvent(fresh.client, 'task.updated', { task: { ...onA!, labels: [], version: 2 }, by: ADA }, ME);
    await settle();
    expect(fresh.askedAgain(fresh.list('todo', { board: 'a', label: 'l1' }))).toBe(true);
    expect(fresh.askedAgain(fresh.list('todo', { board: 'a' }))).toBe(false);
    // The same labels in a new copy (every answer has its own array) are no change.
    const same = cache();
    same.client.setQueryData(same.list('todo', { board: 'a', label: 'l1' }), pages([[onA!], null]));
    applyTaskEvent(same.client, 'task.updated', { task: { ...onA!, labels: onA!.labels.map((l) => ({ ...l })), description: 'More', version: 2 }, by: ADA }, ME);
    await settle();
    expect(same.askedAgain(same.list('todo', { board: 'a', label: 'l1' }))).toBe(false);
  });
});
