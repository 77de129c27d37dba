import { onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe, type PersistedClient } from '@tanstack/react-query-persist-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPY_PAGES_PER_LIST, COPY_SCHEMA_VERSION, createDeviceCopy, keepRestoredStaleUntilFetched, memoryStore, SAVE_INTERVAL_MS, type CopyStore, type DeviceCopy } from './device-copy.ts';
import { QUEUED_WRITES } from './write-queue.ts';

/*
 * The persister on its own, wired to a query client the way PersistQueryClientProvider wires it
 * (persistQueryClientSubscribe / persistQueryClientRestore), over a memory store that clones
 * what it keeps as IndexedDB does.
 */

afterEach(() => {
  onlineManager.setOnline(true);
  vi.useRealTimers();
});

const ROOTS = ['tasks'];

function setUp(store: CopyStore = memoryStore()) {
  const queryClient = new QueryClient();
  const copy = createDeviceCopy(store, undefined);
  const options = { ...copy.persistOptions(ROOTS), queryClient };
  const stop = persistQueryClientSubscribe(options);
  return { queryClient, copy, store, options, stop };
}

const stored = (store: CopyStore) => store.get<PersistedClient>('query-client');

function queueChange(queryClient: QueryClient, variables: unknown): void {
  const mutation = queryClient.getMutationCache().build(queryClient, {
    mutationKey: ['tasks', 'update'],
    scope: QUEUED_WRITES,
    mutationFn: () => new Promise<void>(() => undefined),
  });
  void mutation.execute(variables).catch(() => undefined);
}

describe('the device copy’s persister', () => {
  it('keeps what the board showed (successful queries under its roots), not the rest, and saves at most once a second', async () => {
    vi.useFakeTimers();
    const { queryClient, store, stop } = setUp();
    queryClient.setQueryData(['tasks', 'detail', 't1'], { taskTitle: 'Oil the hinges' });
    queryClient.setQueryData(['notifications', 'list'], { unread: 3 });
    expect(await stored(store)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    const client = await stored(store);
    expect(client?.buster).toBe(COPY_SCHEMA_VERSION);
    expect(client?.clientState.queries.map((q) => q.queryKey)).toEqual([['tasks', 'detail', 't1']]);
    stop();
  });

  it('keeps a long list with its first pages only, and the rest of the cache in full', async () => {
    vi.useFakeTimers();
    const { queryClient, store, stop } = setUp();
    const pages = Array.from({ length: COPY_PAGES_PER_LIST + 3 }, (_, i) => ({ tasks: [{ _id: `t${String(i)}` }], nextCursor: `c${String(i + 1)}` }));
    const pageParams = pages.map((_, i) => (i === 0 ? null : `c${String(i)}`));
    queryClient.setQueryData(['tasks', 'list', { status: 'done' }], { pages, pageParams });
    queryClient.setQueryData(['tasks', 'list', { status: 'todo' }], { pages: pages.slice(0, 2), pageParams: pageParams.slice(0, 2) });
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    const lists = new Map((await stored(store))?.clientState.queries.map((q) => [JSON.stringify(q.queryKey), q.state.data as { pages: unknown[]; pageParams: unknown[] }]));
    const done = lists.get(JSON.stringify(['tasks', 'list', { status: 'done' }]));
    expect(done?.pages).toEqual(pages.slice(0, COPY_PAGES_PER_LIST));
    expect(done?.pageParams).toEqual(pageParams.slice(0, COPY_PAGES_PER_LIST));
    expect(lists.get(JSON.stringify(['tasks', 'list', { status: 'todo' }]))?.pages).toEqual(pages.slice(0, 2));
    // The cache in memory keeps every page it loaded.
    expect(queryClient.getQueryData<{ pages: unknown[] }>(['tasks', 'list', { status: 'done' }])?.pages).toHaveLength(pages.length);
    stop();
  });

  it('saves at once when a change joins the queue, stored as paused so it is sent again after a restore', async () => {
    vi.useFakeTimers();
    onlineManager.setOnline(false);
    const { queryClient, store, stop } = setUp();
    queueChange(queryClient, { id: 't1', taskTitle: 'Offline edit' });
    // Not a millisecond of the save interval passes: it is on disk already.
    await vi.advanceTimersByTimeAsync(0);
    expect((await stored(store))?.clientState.mutations).toHaveLength(1);
    const [saved] = (await stored(store))!.clientState.mutations;
    expect(saved?.scope).toEqual(QUEUED_WRITES);
    expect(saved?.state).toMatchObject({ status: 'pending', isPaused: true, variables: { id: 't1', taskTitle: 'Offline edit' } });
    stop();
  });

  it('stores a change that was under way (pending, not paused) as paused too', async () => {
    vi.useFakeTimers();
    const { queryClient, store, stop } = setUp();
    queueChange(queryClient, { n: 1 });
    expect(queryClient.getMutationCache().getAll()[0]?.state.isPaused).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect((await stored(store))?.clientState.mutations[0]?.state).toMatchObject({ status: 'pending', isPaused: true });
    stop();
  });

  it('restores into a new client, and the restored change is resumed with the function registered for its key', async () => {
    onlineManager.setOnline(false);
    const first = setUp();
    queueChange(first.queryClient, { id: 't2' });
    await vi.waitFor(async () => {
      expect((await stored(first.store))?.clientState.mutations).toHaveLength(1);
    });
    first.stop();

    const queryClient = new QueryClient();
    const sent: unknown[] = [];
    queryClient.setMutationDefaults(['tasks', 'update'], {
      mutationFn: (variables: unknown) => {
        sent.push(variables);
        return Promise.resolve();
      },
    });
    const copy = createDeviceCopy(first.store, undefined);
    await persistQueryClientRestore({ ...copy.persistOptions(ROOTS), queryClient });
    onlineManager.setOnline(true);
    await queryClient.resumePausedMutations();
    expect(sent).toEqual([{ id: 't2' }]);
  });

  /**
   * A page opened right after another: the copy was saved a moment ago, but what changed
   * meanwhile (a task completed elsewhere) reaches neither the copy nor the new page's event
   * stream, which starts at its own opening. With the stream open a list counts as current for
   * good (`staleTime: Infinity`): the copy's version of it must still be asked again once.
   */
  async function restoredJustNow(title: string) {
    const first = setUp();
    first.queryClient.setQueryData(['tasks', 'list', 'todo'], [title]);
    await first.copy.flush();
    first.stop();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const copy = createDeviceCopy(first.store, undefined);
    await persistQueryClientRestore({ ...copy.persistOptions(ROOTS), queryClient });
    keepRestoredStaleUntilFetched(queryClient);
    return queryClient;
  }

  function observe(queryClient: QueryClient, answer: () => string[]) {
    const calls: number[] = [];
    const observer = new QueryObserver(queryClient, {
      queryKey: ['tasks', 'list', 'todo'],
      staleTime: Infinity,
      queryFn: () => {
        calls.push(Date.now());
        return Promise.resolve(answer());
      },
    });
    const seen: unknown[] = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data));
    return { calls, seen, observer, unsubscribe };
  }

  it('restores what it holds as shown but not current: the first observer asks again, even one that would keep it for good', async () => {
    const queryClient = await restoredJustNow('Water the plants');
    expect(queryClient.getQueryData(['tasks', 'list', 'todo'])).toEqual(['Water the plants']);
    const { calls, observer, unsubscribe } = observe(queryClient, () => []);
    // The copy shows at once, and the server's answer replaces it.
    expect(observer.getCurrentResult().data).toEqual(['Water the plants']);
    await vi.waitFor(() => {
      expect(observer.getCurrentResult().data).toEqual([]);
    });
    expect(calls).toHaveLength(1);
    // Fetched now: current again, not asked a second time.
    unsubscribe();
    const again = observe(queryClient, () => ['never asked']);
    expect(again.calls).toHaveLength(0);
    again.unsubscribe();
  });

  it('keeps a restored list stale when a live event is written into it before the server was asked', async () => {
    const queryClient = await restoredJustNow('Water the plants');
    // An event of the new stream lands in the restored list first (cache-writes.ts writes by setQueryData).
    queryClient.setQueryData<string[]>(['tasks', 'list', 'todo'], (list = []) => [...list, 'Created elsewhere']);
    const { calls, observer, unsubscribe } = observe(queryClient, () => ['Created elsewhere']);
    await vi.waitFor(() => {
      expect(observer.getCurrentResult().data).toEqual(['Created elsewhere']);
    });
    expect(calls).toHaveLength(1);
    unsubscribe();
  });

  it('wipe empties the store and cancels a save still waiting', async () => {
    vi.useFakeTimers();
    const { queryClient, copy, store, stop } = setUp();
    await copy.claim({ fullName: 'Ada Lovelace', email: 'ada@example.com' });
    queryClient.setQueryData(['tasks', 'detail', 't1'], { taskTitle: 'Secret' });
    await copy.wipe();
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS * 2);
    expect(await store.get('owner')).toBeUndefined();
    expect(await stored(store)).toBeUndefined();
    stop();
  });

  it('claim by another person empties the previous person’s copy first', async () => {
    const store = memoryStore();
    await store.set('query-client', { buster: COPY_SCHEMA_VERSION, timestamp: Date.now(), clientState: { queries: [], mutations: [] } });
    await store.set('owner', { fullName: 'Ada Lovelace', email: 'ada@example.com' });
    const copy: DeviceCopy = createDeviceCopy(store, await store.get('owner'));
    await copy.claim({ fullName: 'Grace Hopper', email: 'grace@example.com' });
    expect(await stored(store)).toBeUndefined();
    expect(await store.get('owner')).toEqual({ fullName: 'Grace Hopper', email: 'grace@example.com' });
    // The same person again (e-mail in another case) keeps it.
    await store.set('query-client', { buster: COPY_SCHEMA_VERSION, timestamp: Date.now(), clientState: { queries: [], mutations: [] } });
    await copy.claim({ fullName: 'Grace Hopper', email: 'Grace@Example.com' });
    expect(await stored(store)).toBeDefined();
  });
});
