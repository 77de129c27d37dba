/// <reference lib="webworker" />
/**
 * The service worker, served as /sw.js (vite-plugin-pwa `injectManifest` builds this file and
 * writes the precache list in place of `self.__WB_MANIFEST`; web/vite.config.ts says what it
 * holds). docs/architecture.md, "Installable app", describes the whole flow.
 *
 * - The app shell (index.html, JS, CSS, icons) is precached, so the app opens with no network;
 *   every navigation to an app route gets the precached index.html. /api is never cached: its
 *   requests pass through untouched, and the app shows its own error when they fail.
 * - A push shows a notification; a click on it focuses a window of the app and opens the
 *   notification's page there.
 * - A new version installs and then waits: the page shows "A new version is available" and
 *   sends SKIP_WAITING only when the person clicks Reload (web/src/app/pwa/).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { SKIP_WAITING } from './app/pwa/messages.ts';
import { clickTarget, notificationFromPush, pickWindow } from './sw/push-message.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
// Precaches of earlier Workbox versions (a different cache name) are deleted on activation.
cleanupOutdatedCaches();

/**
 * Paths the server answers itself, never with the app: the API (with its documentation at
 * /api/docs) and the Prometheus metrics (server/routes/metrics.ts). Every other navigation is
 * an app route, which the server would answer with index.html too (server/plugins/web-app.ts).
 */
const SERVER_PATHS = [/^\/api(?:[/?]|$)/, /^\/metrics(?:[/?]|$)/];
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SERVER_PATHS }));

// The first worker takes charge of the page that registered it (nothing else controls it yet);
// an update never activates on its own: see the message handler.
clientsClaim();

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === SKIP_WAITING) {
    event.waitUntil(self.skipWaiting());
  }
});

self.addEventListener('push', (event: PushEvent) => {
  const content = notificationFromPush(event.data?.text());
  event.waitUntil(
    self.registration.showNotification(content.title, {
      body: content.body,
      ...(content.tag === undefined ? {} : { tag: content.tag }),
      data: { url: content.url },
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
    }),
  );
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const target = clickTarget(event.notification.data, self.location.origin);
  event.waitUntil(openInApp(target));
});

/** Brings a window of the app forward at `target`, or opens one. */
async function openInApp(target: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = pickWindow(windows, self.location.origin);
  if (existing !== undefined) {
    const focused = await existing.focus();
    if (focused.url === target) return;
    try {
      // navigate() works only on a window this worker controls; otherwise open a new one.
      await focused.navigate(target);
      return;
    } catch {
      // fall through
    }
  }
  await self.clients.openWindow(target);
}
