import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useMemo, type ReactNode } from 'react';
import { attachmentKeys } from '#web/features/attachments/api/query-keys.ts';
import type { SessionCache } from '#web/features/auth/components/session-provider.tsx';
import { boardKeys } from '#web/features/boards/api/query-keys.ts';
import { checklistKeys } from '#web/features/checklists/api/get-checklist.ts';
import { commentKeys } from '#web/features/comments/api/get-comments.ts';
import { peopleKeys } from '#web/features/comments/api/get-people.ts';
import { labelKeys } from '#web/features/labels/api/query-keys.ts';
import { OWN_VERSIONS_KEY } from '#web/features/tasks/api/own-versions.ts';
import { taskKeys } from '#web/features/tasks/api/query-keys.ts';
import { keepRestoredStaleUntilFetched, useDeviceCopy } from '#web/lib/device-copy.ts';
import { createQueryClient } from '#web/lib/query-client.ts';
import { countQueuedWrites } from '#web/lib/write-queue.ts';
import { QueueNotices } from './queue-notices.tsx';

/*
 * The signed-in app's data: TanStack Query's client, restored from and saved to the device copy,
 * and the queue of changes it holds. A chunk of its own (app/data-slot.tsx loads it once someone
 * is signed in, main.tsx before the first render of a tab that starts signed in), so /login and
 * /sign-up never download TanStack Query.
 */

/**
 * The parts of the cache kept on the device: what the board, its task pages and their comments,
 * checklists and lists of files show, and the versions this device's own saves produced (so a change waiting
 * behind another one of the same task is sent with the right version after a reload).
 */
const PERSISTED_ROOTS = [boardKeys.all, taskKeys.all, commentKeys.all, checklistKeys.all, attachmentKeys.all, labelKeys.all, peopleKeys.all, OWN_VERSIONS_KEY].map((key) => key[0]);

// TanStack Query assumes online until the browser says otherwise: a page opened offline must
// start offline (its queries and changes wait instead of failing, and the status line says so).
onlineManager.setOnline(navigator.onLine);

export interface DataLayer {
  queryClient: QueryClient;
  /** What the session does to the cache: empty it (sign-in, sign-out), count the changes still waiting. */
  cache: SessionCache;
  /** Around the routes (DataLayerProvider below). */
  Provider: typeof DataLayerProvider;
}

/** The page's one data layer (tests hand in a client of their own). */
export function createDataLayer(queryClient: QueryClient = createQueryClient()): DataLayer {
  return {
    queryClient,
    cache: {
      clear: () => {
        queryClient.clear();
      },
      countWaiting: () => countQueuedWrites(queryClient),
    },
    Provider: DataLayerProvider,
  };
}

/**
 * Around every page of a signed-in session. The query client is restored from the device copy
 * first (queries wait for it), then the changes that were waiting are sent again: their handlers
 * (app/write-queue.ts) must be registered on the client before this renders — main.tsx does it
 * for a tab that starts signed in, SignedInOutlet (app/signed-in.tsx) for one that signs in later.
 */
export function DataLayerProvider({ layer, children }: { layer: DataLayer; children: ReactNode }) {
  const deviceCopy = useDeviceCopy();
  const { queryClient } = layer;
  const persistOptions = useMemo(() => deviceCopy.persistOptions(PERSISTED_ROOTS), [deviceCopy]);
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={() => {
        keepRestoredStaleUntilFetched(queryClient);
        void queryClient.resumePausedMutations();
      }}
    >
      <QueueNotices />
      {children}
    </PersistQueryClientProvider>
  );
}
