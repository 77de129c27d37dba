import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { listAnswer, makeTask } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { DEFAULT_FILTER } from './board-filter.ts';
import { viewKeys, viewTasksQueryOptions, type ViewTasks } from './view-tasks.ts';

const filter = { ...DEFAULT_FILTER, board: 'team' };
const titles = (list: ViewTasks | undefined) => list?.tasks.map((task) => task.taskTitle);

/** Two pages: `first` (with a cursor to the second), then `second`, which waits for `release`. */
function twoPages(first: Task[], second: Task[]) {
  const held = Promise.withResolvers<undefined>();
  const fetch = mockFetch().always('GET', '/tasks', async (call) => {
    if (call.query.get('cursor') !== 'page-2') return json(200, listAnswer(first, 'page-2'));
    await held.promise;
    return json(200, listAnswer(second));
  });
  return {
    fetch,
    release: () => {
      held.resolve(undefined);
    },
  };
}

describe("a view's list of every task", () => {
  it('read for the first time, shows the first page (of 100) before the next arrives, then both', async () => {
    const client = new QueryClient();
    const [a, b, c] = [makeTask({ taskTitle: 'A' }), makeTask({ taskTitle: 'B' }), makeTask({ taskTitle: 'C' })];
    const { fetch, release } = twoPages([a, b], [c]);
    const read = client.query(viewTasksQueryOptions(filter, 0));
    await expect.poll(() => titles(client.getQueryData(viewKeys.list(filter)))).toEqual(['A', 'B']);
    expect(client.getQueryData<ViewTasks>(viewKeys.list(filter))?.complete).toBe(false);
    expect(fetch.callsTo('GET', '/tasks')[0]?.query.get('limit')).toBe('100');
    release();
    expect(titles(await read)).toEqual(['A', 'B', 'C']);
    expect((await read).complete).toBe(true);
    expect(fetch.callsTo('GET', '/tasks')[1]?.query.get('limit')).toBe('500');
  });

  it('restored from the device copy while a first read is under way, is replaced by the read, never appended to', async () => {
    const client = new QueryClient();
    const [a, b, c] = [makeTask({ taskTitle: 'A' }), makeTask({ taskTitle: 'B' }), makeTask({ taskTitle: 'C' })];
    const firstPage = Promise.withResolvers<undefined>();
    mockFetch().always('GET', '/tasks', async (call) => {
      if (call.query.get('cursor') === 'page-2') return json(200, listAnswer([c]));
      await firstPage.promise;
      return json(200, listAnswer([a, b], 'page-2'));
    });
    const read = client.query(viewTasksQueryOptions(filter, 0));
    // The device copy arrives (an earlier visit's list) before the first page does.
    client.setQueryData<ViewTasks>(viewKeys.list(filter), { tasks: [a, b], truncated: false, complete: true });
    firstPage.resolve(undefined);
    expect(titles(await read)).toEqual(['A', 'B', 'C']);
    expect(titles(client.getQueryData(viewKeys.list(filter)))).toEqual(['A', 'B', 'C']);
  });

  it('cached already (read before, or from the device copy), stays as it was until the new list is whole, then is replaced, never appended to', async () => {
    const client = new QueryClient();
    const [a, b, c] = [makeTask({ taskTitle: 'A' }), makeTask({ taskTitle: 'B' }), makeTask({ taskTitle: 'C' })];
    client.setQueryData<ViewTasks>(viewKeys.list(filter), { tasks: [a, b], truncated: false, complete: true });
    const { fetch, release } = twoPages([a, b], [c]);
    const read = client.query(viewTasksQueryOptions(filter, 0));
    // The first page is in (the second is asked for): the cached list is still the one shown.
    await expect.poll(() => fetch.callsTo('GET', '/tasks').length).toBe(2);
    expect(titles(client.getQueryData(viewKeys.list(filter)))).toEqual(['A', 'B']);
    release();
    await read;
    expect(titles(client.getQueryData(viewKeys.list(filter)))).toEqual(['A', 'B', 'C']);
  });
});
