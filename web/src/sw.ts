/// <reference lib="webworker" />
/**
 * The service worker, served as /sw.js (vite-plugin-pwa `injectManifest` builds this file and
 * writes the precache list in place of `self.__WB_MANIFEST`; web/vite.config.ts says what it
 * holds). docs/architecture.md, "Installable app", describes the whole flow.
 *
 * - The app shell (index.html, JS, CSS, icons, English's catalogs) is precached, so the app
 *   opens with no network; every navigation to an app route gets the precached index.html.
 *   Another language's catalogs are cached when it is used (below). /api is never cached: its
 *   requests pass through untouched, and the app shows its own error when they fail.
 * - A push shows a notification; a click on it focuses a window of the app and opens the
 *   notification's page there.
 * - A new version installs and then waits: the page shows "A new version is available" and
 *   sends SKIP_WAITING only when the person clicks Reload (web/src/app/pwa/).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { DEFAULT_LANGUAGE } from '#shared/languages.ts';
import { CATALOG_CACHE, catalogLanguage } from './app/pwa/catalog-files.ts';
import { storedOfflineLanguage } from './app/pwa/offline-language.ts';
import { SKIP_WAITING } from './app/pwa/messages.ts';
import { clickTarget, notificationFromPush, pickWindow } from './sw/push-message.ts';

type ManifestEntry = string | PrecacheEntry;
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: ManifestEntry[] };

const absolute = (entry: ManifestEntry) => new URL(typeof entry === 'string' ? entry : entry.url, self.location.href).href;
/** A catalog of another language than English: cached when its language is used, not precached. */
const onDemand = (entry: ManifestEntry) => {
  const language = catalogLanguage(absolute(entry));
  return language !== undefined && language !== DEFAULT_LANGUAGE;
};
const manifest = self.__WB_MANIFEST;
precacheAndRoute(manifest.filter((entry) => !onDemand(entry)));
// Precaches of earlier Workbox versions (a different cache name) are deleted on activation.
cleanupOutdatedCaches();

/**
 * The other languages' catalogs of this version (web/src/app/pwa/catalog-files.ts): each is cached
 * the first time it is asked for through this worker, and served from the cache from then on
 * (the file names change with their content). The language the device speaks is cached at
 * installation, so it is there offline from the first visit; earlier versions' catalogs go when
 * this version takes over.
 */
const catalogs = new Set(manifest.filter(onDemand).map(absolute));
registerRoute(({ url }) => catalogs.has(url.href), new CacheFirst({ cacheName: CATALOG_CACHE }));

async function cacheLanguageSpoken(): Promise<void> {
  const language = await storedOfflineLanguage();
  if (language === undefined) return;
  const cache = await caches.open(CATALOG_CACHE);
  await cache.addAll([...catalogs].filter((url) => catalogLanguage(url) === language));
}

async function dropOtherVersionsCatalogs(): Promise<void> {
  const cache = await caches.open(CATALOG_CACHE);
  for (const request of await cache.keys()) if (!catalogs.has(request.url)) await cache.delete(request);
}

self.addEventListener('install', (event: ExtendableEvent) => {
  // Best effort: without it the worker still installs, and the app falls back to English offline.
  event.waitUntil(cacheLanguageSpoken().catch(() => undefined));
});
self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(dropOtherVersionsCatalogs());
});

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
