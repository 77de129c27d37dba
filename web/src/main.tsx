import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { startFormats, startLanguage, startSpeaking } from '#web/app/i18n.ts';
import { loadDataLayer } from '#web/app/data-slot.tsx';
import { AppProviders } from '#web/app/providers.tsx';
import { AppRoutes, preloadFirstScreen } from '#web/app/routes.tsx';
import { askEarly } from '#web/features/auth/api/get-me.ts';
import { openDeviceCopy } from '#web/lib/device-copy.ts';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

const signedIn = localStorage.getItem(LOGGED_IN_FLAG) !== null;
// Who is signed in is asked now, not after the first render (features/auth/api/get-me.ts).
if (signedIn) void askEarly();

// The first render waits for what it needs, fetched side by side: the catalogs of its language
// (app/i18n.ts); whose copy this device holds,
// which decides how the session starts (one small IndexedDB read); the chunks of the first
// screen, so that it renders whole, without a Suspense fallback and the delay React puts after
// one; and, in a tab that starts signed in, the data layer (app/data-layer.tsx) with the handlers
// of the changes that may be waiting in the copy, registered before it is restored
// (app/write-queue.ts). A signed-out tab loads neither: /login never downloads TanStack Query.
// Should the layer's chunk fail here, the routes ask for it again (app/data-slot.tsx).
const dataLayer = signedIn
  ? Promise.all([loadDataLayer(), import('#web/app/write-queue.ts')]).then(
      ([layer, { registerQueuedWrites }]) => {
        registerQueuedWrites(layer.queryClient);
        return layer;
      },
      () => undefined,
    )
  : undefined;
startFormats(signedIn);
void Promise.all([openDeviceCopy({ signedIn }), dataLayer, startSpeaking(startLanguage(signedIn), { app: signedIn }), preloadFirstScreen(window.location.pathname, window.location.search, signedIn)]).then(([deviceCopy, layer]) => {
  const app = createRoot(root);
  // As a transition, React renders the first screen in slices of a few milliseconds, yielding to
  // the browser between them, rather than in one long task that would keep a slow phone from
  // answering a tap; it is shown, all at once, when the last slice is done.
  startTransition(() => {
    app.render(
      <StrictMode>
        <AppProviders deviceCopy={deviceCopy} dataLayer={layer}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>
      </StrictMode>,
    );
  });
});

/*
 * The service worker (offline app shell, push notifications, updates: web/src/app/pwa/) is
 * registered once the page has loaded and the browser is idle, from its own small chunk, so it
 * never competes with the first paint. Not in development: Vite's dev server has no worker.
 */
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => {
    import('#web/app/pwa/register-service-worker.ts')
      .then(({ registerServiceWorker }) => registerServiceWorker())
      .catch((error: unknown) => {
        // The app works without it, only not offline and without push.
        console.warn('The service worker could not be registered:', error);
      });
  };
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(register, { timeout: 5_000 });
    else window.setTimeout(register, 1_000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
