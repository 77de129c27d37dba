import type { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { createDataLayer } from '#web/app/data-layer.tsx';
import { LatestRouterProvider } from '#web/lib/latest-router.tsx';
import { DataSlot } from '#web/app/data-slot.tsx';
import { AppProviders } from '#web/app/providers.tsx';
import { AppRoutes } from '#web/app/routes.tsx';
import { createDeviceCopy, memoryStore, type CopyStore, type DeviceCopy } from '#web/lib/device-copy.ts';
import { createQueryClient } from '#web/lib/query-client.ts';
// The app loads its pages and the signed-in pages' shared code lazily (React.lazy). Here they
// are loaded up front, while the test file is collected, so a test's first render does not
// wait for their code to be transformed (seconds on a busy machine) inside a query's one-second
// window; React.lazy then resolves at once.
import '#web/app/signed-in.tsx';
import '#web/app/routes/account.tsx';
import '#web/app/routes/board-settings.tsx';
import '#web/app/routes/board.tsx';
import '#web/app/routes/landing.tsx';
import '#web/app/routes/login.tsx';
import '#web/app/routes/reset-password.tsx';
import '#web/app/routes/sign-up.tsx';
import '#web/app/routes/task.tsx';
import '#web/app/routes/tasks.tsx';
import '#web/app/routes/unsubscribe.tsx';
import { registerQueuedWrites } from '#web/app/write-queue.ts';

/** The current URL, rendered so tests can assert where the app went. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

export function currentPath(): string {
  return document.querySelector('[data-testid="location"]')?.textContent ?? '';
}

export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  // No retries in tests: a failure shows at once.
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  return client;
}

/**
 * A device copy kept in memory (jsdom has no IndexedDB). `store` and `owner` stand for a copy
 * this device already holds, as `openDeviceCopy` would have found it.
 */
export function testDeviceCopy({ store = memoryStore(), owner }: { store?: CopyStore; owner?: PublicUser } = {}): DeviceCopy {
  return createDeviceCopy(store, owner);
}

/** The whole app at `path`, with the same providers as production and a fresh cache. */
export function renderApp(
  path: string,
  {
    signedIn = false,
    deviceCopy = testDeviceCopy(),
    queryClient = testQueryClient(),
    dataLayerOnSignIn = false,
  }: {
    signedIn?: boolean;
    deviceCopy?: DeviceCopy;
    queryClient?: QueryClient;
    /** As a page that starts signed out: no data layer until someone signs in (then the app loads its own, not `queryClient`). */
    dataLayerOnSignIn?: boolean;
  } = {},
) {
  if (signedIn) localStorage.setItem(LOGGED_IN_FLAG, 'true');
  // As main.tsx does before the first render.
  registerQueuedWrites(queryClient);
  const user = userEvent.setup();
  const result = render(
    <AppProviders deviceCopy={deviceCopy} dataLayer={dataLayerOnSignIn ? undefined : createDataLayer(queryClient)}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { user, queryClient, deviceCopy, ...result };
}

/** One component with the app's providers and a router, for focused tests. */
export function renderWithProviders(ui: ReactNode, { path = '/' }: { path?: string } = {}): RenderResult & { user: ReturnType<typeof userEvent.setup> } {
  const user = userEvent.setup();
  const queryClient = testQueryClient();
  registerQueuedWrites(queryClient);
  const result = render(
    <AppProviders deviceCopy={testDeviceCopy()} dataLayer={createDataLayer(queryClient)}>
      <MemoryRouter initialEntries={[path]}>
        <LatestRouterProvider>
          <DataSlot>{ui}</DataSlot>
        </LatestRouterProvider>
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { user, ...result };
}
