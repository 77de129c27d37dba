import { offlineLanguageStored } from './offline-language.ts';
import { SKIP_WAITING } from './messages.ts';
import { offerUpdate } from './update-store.ts';

/**
 * Registers the service worker (web/src/sw.ts, served as /sw.js) and runs the update flow
 * (docs/decisions/079-update-prompt.md):
 *
 * 1. The browser finds a changed /sw.js (on a navigation, or when we call `update()`); the new
 *    worker precaches the new version and then waits, while the old one keeps serving this page.
 * 2. We offer the update (the prompt "A new version is available"); nothing happens until the
 *    person clicks Reload, which tells the waiting worker to take over (SKIP_WAITING).
 * 3. The new worker activates, `controllerchange` fires, and this page reloads into the new version.
 *
 * Another tab that clicked Reload switches this page's worker too; this page then offers a plain
 * reload (its code is the old version) but never reloads by itself.
 */
export const UPDATE_CHECK_EVERY_MS = 60 * 60 * 1000;
/** How often a visible page looks whether an hourly check is due. */
const CHECK_TICK_MS = 10 * 60 * 1000;

export interface RegisterOptions {
  container?: ServiceWorkerContainer;
  reload?: () => void;
  now?: () => number;
}

export async function registerServiceWorker(options: RegisterOptions = {}): Promise<ServiceWorkerRegistration> {
  const container = options.container ?? navigator.serviceWorker;
  const now = options.now ?? Date.now;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    if (options.reload) options.reload();
    else window.location.reload();
  };

  let accepted = false;
  let controlled = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (accepted) reload();
    // The first worker taking charge of this page (clients.claim) is no update.
    else if (controlled) offerUpdate(reload);
    controlled = true;
  });

  // A worker installed now caches the language this page speaks: stored first (offline-language.ts).
  await offlineLanguageStored();
  const registration = await container.register('/sw.js', { scope: '/' });

  const offer = (worker: ServiceWorker) => {
    offerUpdate(() => {
      accepted = true;
      // A page no worker controls (after a hard reload) gets no controllerchange: reload on activation.
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') reload();
      });
      worker.postMessage({ type: SKIP_WAITING });
    });
  };
  // An update that was already waiting when this page loaded (e.g. declined in another tab).
  if (registration.waiting !== null && registration.active !== null) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (worker === null) return;
    worker.addEventListener('statechange', () => {
      // Installed while another version is active: an update, now waiting. (The very first
      // worker has none active and simply takes over.)
      if (worker.state === 'installed' && registration.active !== null) offer(worker);
    });
  });

  // A page left open for days must still learn of a new version: look when it becomes visible
  // or focused again, and while it stays visible, at most once an hour.
  let lastCheck = now();
  const check = () => {
    if (document.visibilityState !== 'visible' || now() - lastCheck < UPDATE_CHECK_EVERY_MS) return;
    lastCheck = now();
    // Offline or the server down: the next check tries again.
    registration.update().catch(() => undefined);
  };
  document.addEventListener('visibilitychange', check);
  window.addEventListener('focus', check);
  window.setInterval(check, CHECK_TICK_MS);

  return registration;
}
