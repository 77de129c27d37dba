import { lazy, useState, type ComponentType, type JSX } from 'react';

/** A component from a chunk of its own, and a way to fetch that chunk before it renders. */
export type LazyComponent<P extends object> = ((props: P) => JSX.Element) & {
  /** Fetches the chunk; resolves (never rejects) once it is there or could not be had. */
  preload: () => Promise<void>;
};

/**
 * React.lazy with `preload()`: once its chunk has arrived, the component renders at once
 * instead of suspending. More than a spinner's flash is at stake: React holds back a Suspense
 * boundary's content until 300 ms after the last fallback it committed (its throttle against
 * content popping in piece by piece), so a first screen that suspends even once is ready no
 * sooner than that, however fast its chunks and data arrive. main.tsx preloads what the first
 * screen needs (routes.tsx, preloadFirstScreen) before the first render.
 *
 * Each mounted instance keeps the kind it started with (loaded, or lazy until it resolves), so
 * a chunk arriving later never swaps the element type under mounted state.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchChunk = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // Not remembered here: a later preload asks again.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await fetchChunk() }));
  function Preloadable(props: P) {
    const [Chosen] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Chosen {...props} />;
  }
  return Object.assign(Preloadable, {
    preload: () =>
      fetchChunk().then(
        () => undefined,
        () => undefined,
      ),
  });
}
