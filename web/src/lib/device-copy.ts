import type { Mutation, Query, QueryClient } from '@tanstack/react-query';
import { createContext, use } from 'react';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { createStore, del, get, promisifyRequest } from 'idb-keyval';
import type { PublicUser } from '#shared/schemas/users.ts';
import { QUEUED_WRITES } from './queued-writes.ts';

/*
 * The device copy: what this browser has seen of the signed-in person's boards (the query
 * cache) and the changes it has not sent yet (the mutation cache), kept in IndexedDB so the app
 * opens with no network and a waiting change survives a reload or a browser restart. It is
 * TanStack Query's own persistence (PersistQueryClientProvider) over a small IndexedDB persister
 * written on idb-keyval; values are stored by structured clone, not JSON.
 *
 * The copy belongs to one person: `owner` records whose it is, and anything that ends the
 * session, or another person signing in, empties it.
 */

/** Raise when what is stored can no longer be read by this code: the old copy is dropped. Not the build id: a deploy must not drop waiting changes. */
export const COPY_SCHEMA_VERSION = '1';

/** A copy not written for a week is dropped rather than shown (and with it any change that old). */
export const COPY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Ordinary saves are at most this often; a new waiting change, and leaving the page, save at once. */
export const SAVE_INTERVAL_MS = 1000;

const CLIENT_KEY = 'query-client';
const OWNER_KEY = 'owner';

/** Where the copy lives: IndexedDB in the browser; tests may hand in another store. */
export interface CopyStore {
  get: <T>(key: string) => Promise<T | undefined>;
  set: (key: string, value: unknown) => Promise<void>;
  del: (key: string) => Promise<void>;
}

/** One database and one object store of the app's own, so nothing else's data is touched. */
export function indexedDbStore(): CopyStore {
  const store = createStore('taskwise-device-copy', 'copy');
  return {
    get: (key) => get(key, store),
    // idb-keyval's `set`, plus an explicit commit: a save made as the page goes (pagehide) must
    // not wait for the transaction to commit by itself after the page is gone.
    set: (key, value) =>
      store('readwrite', (objects) => {
        objects.put(value, key);
        objects.transaction.commit();
        return promisifyRequest(objects.transaction);
      }).then(() => undefined),
    del: (key) => del(key, store),
  };
}

/** Kept in memory only: where IndexedDB is missing (tests, some private modes) the app still runs. */
export function memoryStore(): CopyStore {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => Promise.resolve(values.get(key) as T | undefined),
    set: (key, value) => {
      values.set(key, structuredClone(value));
      return Promise.resolve();
    },
    del: (key) => {
      values.delete(key);
      return Promise.resolve();
    },
  };
}

const defaultStore = (): CopyStore => (typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore());

const isQueuedWrite = (mutation: Mutation): boolean =>
  mutation.options.scope?.id === QUEUED_WRITES.id && mutation.state.status === 'pending';

const pendingWritesIn = (client: PersistedClient): number =>
  client.clientState.mutations.filter((m) => m.scope?.id === QUEUED_WRITES.id && m.state.status === 'pending').length;

/**
 * A change still pending when the page goes (sent but not answered, or waiting between tries)
 * is stored as paused, so that `resumePausedMutations` sends it again after the restore; the
 * server recognises a repeated create or comment by its idempotency key.
 */
function markPaused(client: PersistedClient): PersistedClient {
  const mutations = client.clientState.mutations.map((m) => (m.state.status === 'pending' && !m.state.isPaused ? { ...m, state: { ...m.state, isPaused: true } } : m));
  return { ...client, clientState: { ...client.clientState, mutations } };
}

/**
 * A list (an infinite query: `pages`) is kept with its first pages only: what a column shows
 * first, and what a reload asks again anyway. A column scrolled to its 400th page would
 * otherwise make every save clone megabytes on the main thread, and every start restore them
 * before the first card shows (decision 104).
 */
export const COPY_PAGES_PER_LIST = 4;

interface Paged {
  pages: unknown[];
  pageParams: unknown[];
}
const isPaged = (data: unknown): data is Paged =>
  typeof data === 'object' && data !== null && Array.isArray((data as Paged).pages) && Array.isArray((data as Paged).pageParams);

/** The copy to store: long lists cut to their first pages, waiting changes marked paused. */
function toStore(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) => {
    const data: unknown = query.state.data;
    if (!isPaged(data) || data.pages.length <= COPY_PAGES_PER_LIST) return query;
    const cut: Paged = { pages: data.pages.slice(0, COPY_PAGES_PER_LIST), pageParams: data.pageParams.slice(0, COPY_PAGES_PER_LIST) };
    return { ...query, state: { ...query.state, data: cut } };
  });
  return markPaused({ ...client, clientState: { ...client.clientState, queries } });
}

/**
 * The copy as restored: every query marked invalidated, so that the first observer of each asks
 * the server again whatever its `staleTime`. A copy says what the board was when it was saved,
 * not what it is now; the event stream a page opens only carries what happens from its own
 * opening on, so whatever changed in between is only learnt by asking (decision 122).
 */
function fromStore(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) => ({ ...query, state: { ...query.state, isInvalidated: true } }));
  return { ...client, clientState: { ...client.clientState, queries } };
}

/**
 * Keeps what the copy restored stale until an answer of the server replaces it: a live event or
 * this tab's own change written into a restored list (setQueryData) would otherwise make it
 * "fresh" again, and a list kept current by the stream (`staleTime: Infinity`) would never be
 * asked again, missing what changed before the stream opened. Run once the restore is done.
 */
export function keepRestoredStaleUntilFetched(queryClient: QueryClient): () => void {
  const cache = queryClient.getQueryCache();
  const unfetched = new Set(
    cache
      .getAll()
      .filter((query) => query.state.isInvalidated && query.state.data !== undefined)
      .map((query) => query.queryHash),
  );
  if (unfetched.size === 0) return () => undefined;
  const unsubscribe = cache.subscribe((event) => {
    const hash = event.query.queryHash;
    if (!unfetched.has(hash)) return;
    if (event.type === 'removed') unfetched.delete(hash);
    else if (event.type === 'updated' && event.action.type === 'success') {
      // Written in by hand (manual): still not the server's answer. Fetched: current now.
      if (event.action.manual === true) cache.get(hash)?.invalidate();
      else unfetched.delete(hash);
    }
    if (unfetched.size === 0) unsubscribe();
  });
  return unsubscribe;
}

export interface DeviceCopy {
  /** Whose copy this is (the person last signed in on this device), if there is one. */
  readonly owner: PublicUser | undefined;
  readonly persister: Persister;
  /** Options for PersistQueryClientProvider. */
  persistOptions: (persistedRoots: readonly string[]) => Omit<PersistQueryClientOptions, 'queryClient'>;
  /** Writes the latest state now (leaving the page, a new waiting change). */
  flush: () => Promise<void>;
  /** Records who is signed in; another person's copy is emptied first. */
  claim: (user: PublicUser) => Promise<void>;
  /** Empties the copy on this device (sign-out). */
  wipe: () => Promise<void>;
}

/**
 * Opens the copy and reads whose it is (one small IndexedDB read before the first render). A
 * device that is not signed in keeps no copy: one left behind (the session ended while the app
 * was closed, storage was cleared by hand) is emptied before anything can restore it.
 */
export async function openDeviceCopy({ signedIn, store = defaultStore() }: { signedIn: boolean; store?: CopyStore }): Promise<DeviceCopy> {
  // The stored cache is asked for now, beside the owner, rather than after the first render:
  // its read then overlaps the page's own start (the restore awaits this same read).
  const stored = signedIn ? store.get<PersistedClient>(CLIENT_KEY).catch(() => undefined) : Promise.resolve(undefined);
  let owner: PublicUser | undefined;
  try {
    owner = signedIn ? await store.get<PublicUser>(OWNER_KEY) : undefined;
  } catch {
    owner = undefined;
  }
  const copy = createDeviceCopy(store, owner, stored);
  if (!signedIn) await copy.wipe();
  return copy;
}

/** The copy as it is, without reading the store first (tests hand in the owner they stored). */
export function createDeviceCopy(store: CopyStore, initialOwner: PublicUser | undefined, storedRead?: Promise<PersistedClient | undefined>): DeviceCopy {
  let owner = initialOwner;
  // The read openDeviceCopy started, used by the first restore only (a wipe since voids it).
  let firstRead = storedRead;
  let latest: PersistedClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let savedPendingWrites = 0;
  // Saves run one after another, so an older state never lands after a newer one.
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>): Promise<void> => {
    chain = chain.then(work).catch((error: unknown) => {
      // A full or unavailable store: the app goes on from memory.
      console.warn('The device copy could not be saved:', error);
    });
    return chain;
  };

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const client = latest;
    latest = undefined;
    if (!client) return chain;
    savedPendingWrites = pendingWritesIn(client);
    return enqueue(() => store.set(CLIENT_KEY, toStore(client)));
  };

  const persister: Persister = {
    persistClient: (client) => {
      latest = client;
      // A change made (offline or not) must be on disk before it can be lost to a reload.
      if (pendingWritesIn(client) > savedPendingWrites) return flush();
      timer ??= setTimeout(() => void flush(), SAVE_INTERVAL_MS);
      return Promise.resolve();
    },
    restoreClient: async () => {
      const read = firstRead ?? store.get<PersistedClient>(CLIENT_KEY);
      firstRead = undefined;
      const client = await read;
      return client === undefined ? undefined : fromStore(client);
    },
    removeClient: () => enqueue(() => store.del(CLIENT_KEY)),
  };

  const wipe = (): Promise<void> => {
    firstRead = undefined;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    latest = undefined;
    savedPendingWrites = 0;
    owner = undefined;
    return enqueue(async () => {
      await store.del(CLIENT_KEY);
      await store.del(OWNER_KEY);
    });
  };

  const claim = async (user: PublicUser): Promise<void> => {
    if (owner && owner.email.toLowerCase() !== user.email.toLowerCase()) await wipe();
    owner = user;
    await enqueue(() => store.set(OWNER_KEY, user));
  };

  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => void flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void flush();
    });
  }

  return {
    get owner() {
      return owner;
    },
    persister,
    persistOptions: (persistedRoots) => ({
      persister,
      buster: COPY_SCHEMA_VERSION,
      maxAge: COPY_MAX_AGE_MS,
      dehydrateOptions: {
        // What was fetched successfully from the parts of the app that work offline (boards,
        // tasks, comments, checklists, labels); not the notifications inbox or account pages.
        shouldDehydrateQuery: (query: Query) => query.state.status === 'success' && persistedRoots.includes(String(query.queryKey[0])),
        shouldDehydrateMutation: isQueuedWrite,
      },
    }),
    flush,
    claim,
    wipe,
  };
}

/** Restored data must outlive unmounted pages long enough to be saved and used offline (TanStack's default is 5 minutes). */
export const COPY_GC_TIME_MS = COPY_MAX_AGE_MS;

export const DeviceCopyContext = createContext<DeviceCopy | null>(null);

export function useDeviceCopy(): DeviceCopy {
  const copy = use(DeviceCopyContext);
  if (!copy) throw new Error('useDeviceCopy() needs the app providers.');
  return copy;
}
