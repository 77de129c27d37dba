import { createContext, use, useCallback, useEffect, useState, type ReactNode } from 'react';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { errorText } from '#web/lib/error-text.ts';
import type { DataLayer } from './data-layer.tsx';
import { withAppCatalog } from './i18n.ts';
import { PageLoading } from './root-layout.tsx';

/*
 * Where the signed-in app's data layer (app/data-layer.tsx: TanStack Query and the device copy's
 * persistence) comes in. A signed-out visitor's screens send plain requests (lib/use-request.ts)
 * and never download it; it is loaded once someone signs in, and stays for the rest of the
 * page's life (a sign-out empties it).
 */

let loading: Promise<DataLayer> | undefined;

/** Loads the data layer's chunk (with the app catalog: only the signed-in part uses it) and makes the page's one layer. */
export function loadDataLayer(): Promise<DataLayer> {
  loading ??= withAppCatalog(() => import('./data-layer.tsx'))().then(
    ({ createDataLayer }) => createDataLayer(),
    (error: unknown) => {
      loading = undefined; // asked again on the next try
      throw error;
    },
  );
  return loading;
}

export interface DataLayerHost {
  layer: DataLayer | undefined;
  /** Loads it (once) and renders it in place; a failure is shown with a way to try again. */
  need: () => void;
  failure: unknown;
}

const DataLayerContext = createContext<DataLayerHost | null>(null);

/** Holds the page's data layer: the one main.tsx loaded before the first render (or a test's), or the one loaded later. */
export function useDataLayerHost(initial: DataLayer | undefined): DataLayerHost {
  const [layer, setLayer] = useState(initial);
  const [failure, setFailure] = useState<unknown>(null);
  const need = useCallback(() => {
    setFailure(null);
    loadDataLayer().then((loaded) => {
      // Taken up for a session that has just begun: nothing of an earlier one may be in it.
      loaded.cache.clear();
      setLayer(loaded);
    }, setFailure);
  }, []);
  return { layer, need, failure };
}

export function DataLayerHostProvider({ host, children }: { host: DataLayerHost; children: ReactNode }) {
  return <DataLayerContext value={host}>{children}</DataLayerContext>;
}

/**
 * The routes, inside the data layer once there is one. Signed in without it yet (someone just
 * signed in on this page), a spinner while it loads: no signed-in screen renders without it.
 */
export function DataSlot({ children }: { children: ReactNode }) {
  const host = use(DataLayerContext);
  if (!host) throw new Error('DataSlot needs the app providers.');
  const { session } = useSession();
  const { layer, need, failure } = host;
  const wanted = session.status === 'signedIn' && layer === undefined;
  useEffect(() => {
    if (wanted) need();
  }, [wanted, need]);
  if (layer !== undefined) return <layer.Provider layer={layer}>{children}</layer.Provider>;
  if (!wanted) return children;
  if (failure !== null) {
    return (
      <div className="main">
        <RetryAlert onRetry={need}>{errorText(failure)}</RetryAlert>
      </div>
    );
  }
  return <PageLoading />;
}
