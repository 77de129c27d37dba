/**
 * The installable app: the manifest and its icons, Chromium's own installability check, the
 * service worker (control, offline app shell, pushed notifications) and the update prompt.
 * The worker's pure parts (payload, click target) have unit tests in web/src/sw/.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CLIENT_MESSAGES } from '../shared/messages.ts';
import { CATALOG_CACHE, catalogFile } from '../web/src/app/pwa/catalog-files.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { loginForm } from './support/pages.ts';
import { chromeArgs, chromePath, fullChromePath, tmpRoot } from './support/paths.ts';

/** Waits until a service worker controls the page (it claims the page on first activation). */
async function waitForControl(page: Page): Promise<void> {
  // Polled from here: waitForFunction evaluates its string with eval, which the app's CSP forbids.
  await expect.poll(() => page.evaluate<string | null>('navigator.serviceWorker.controller?.state ?? null'), { timeout: 30_000 }).toBe('activated');
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/**
 * The app behind a proxy of its own origin (another port), whose /sw.js can be changed: a new
 * version deployed, for this test's browser only. (The harness's server is shared by every spec,
 * and Playwright's routing does not see the browser's update check of a worker script.)
 * GET and HEAD only, which is all a signed-out page asks for.
 */
async function startDeployableProxy(upstream: string): Promise<{ url: string; changeWorker: (append: string) => void; close: () => Promise<void> }> {
  let appended = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      // Not the conditional headers: the changed /sw.js must never be answered 304.
      const headers = new Headers();
      for (const name of ['accept', 'cache-control']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const path = new URL(request.url ?? '/', 'http://proxy.invalid').pathname;
      const answer = await fetch(new URL(request.url ?? '/', upstream), { method: request.method, headers });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'etag', 'last-modified'].includes(name)) out[name] = value;
      });
      let body = Buffer.from(await answer.arrayBuffer());
      if (path === '/sw.js' && answer.status === 200 && appended !== '') body = Buffer.concat([body, Buffer.from(`\n${appended}\n`)]);
      response.writeHead(answer.status, out);
      response.end(request.method === 'HEAD' ? undefined : body);
    })().catch((error: unknown) => {
      response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    changeWorker: (append) => {
      appended = append;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

test.describe('manifest', () => {
  test('is linked, valid, and its icons are there in the sizes it names', async ({ page }) => {
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({ name: 'Taskwise', short_name: 'Taskwise', start_url: '/tasks', scope: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    for (const icon of manifest.icons) {
      const file = await page.request.get(icon.src);
      expect(file.status(), icon.src).toBe(200);
      expect(file.headers()['content-type'], icon.src).toBe(icon.type);
      expect(pngSize(await file.body()), icon.src).toBe(icon.sizes);
    }
    const sizes = (purpose: string) => manifest.icons.filter((i) => (i.purpose ?? 'any').split(' ').includes(purpose)).map((i) => i.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(expect.arrayContaining(['192x192', '512x512']));

    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(pngSize(await (await page.request.get(touchIcon!)).body())).toBe('180x180');
    // A title-bar colour for each theme.
    const themeColors = page.locator('meta[name="theme-color"]');
    await expect(themeColors).toHaveCount(2);
    expect(await Promise.all((await themeColors.all()).map((meta) => meta.getAttribute('media')))).toEqual([
      '(prefers-color-scheme: light)',
      '(prefers-color-scheme: dark)',
    ]);
  });
});

test.describe('service worker', () => {
  test('takes control and Chromium finds the app installable', async ({ baseURL }) => {
    // Chromium never offers to install from an incognito profile, which every Playwright
    // context is: this test runs in a browser with a profile of its own.
    const profile = mkdtempSync(join(tmpRoot, 'pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: chromePath, args: chromeArgs, headless: true, baseURL: baseURL! });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/login');
      await waitForControl(page);
      expect(await page.evaluate<string | undefined>('navigator.serviceWorker.controller?.scriptURL')).toBe(`${baseURL!}/sw.js`);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test.describe('signed in', () => {
    test.use({ signedIn: true });

    test('offline, a reload of /tasks still opens the app (from the precache), which says it is offline', async ({ page, context }) => {
      await page.goto('/tasks');
      await expect(page.getByRole('button', { name: 'Create Task', exact: true })).toBeVisible();
      await waitForControl(page);

      await context.setOffline(true);
      const response = await page.reload();
      expect(response?.fromServiceWorker()).toBe(true);
      // The app itself runs, still signed in from the device's copy (e2e/offline.spec.ts), and says where it stands.
      await expect(page.getByRole('link', { name: 'Taskwise' }).first()).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('status')).toHaveText('Offline');
      await expect(page.getByText(CLIENT_MESSAGES.userInfoFailure)).toHaveCount(0);
      await context.setOffline(false);
    });
  });

  test.describe('in German', () => {
    test.use({ locale: 'de-DE' });

    /** The catalog files ("app de", "public en"…) in the worker's caches, by cache: "precache" (Workbox's) or "catalogs". */
    const cachedCatalogs = async (page: Page) => {
      const urls = await page.evaluate<Record<string, string[]>>(`(async () => {
        const urls = {};
        for (const name of await caches.keys()) urls[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
        return urls;
      })()`);
      const byKind: Record<string, string[]> = {};
      for (const [name, list] of Object.entries(urls)) {
        const kind = name.startsWith('workbox-precache') ? 'precache' : name === CATALOG_CACHE ? 'catalogs' : undefined;
        if (kind === undefined) continue;
        for (const url of list) {
          const file = catalogFile(url);
          if (file) (byKind[kind] ??= []).push(`${file.part} ${file.language}`);
        }
      }
      for (const list of Object.values(byKind)) list.sort();
      return byKind;
    };

    /** Empties the browser's HTTP cache (not Cache Storage): offline, only the worker's caches are left. */
    const clearHttpCache = async (page: Page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    };

    test('the worker keeps English and the language spoken, not the other ten; offline the page opens in German', async ({ page, context }) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Anmelden', exact: true })).toBeVisible();
      await waitForControl(page);

      expect(await cachedCatalogs(page)).toEqual({ precache: ['app en', 'public en'], catalogs: ['app de', 'public de'] });

      await clearHttpCache(page);
      await context.setOffline(true);
      try {
        const response = await page.reload();
        expect(response?.fromServiceWorker()).toBe(true);
        await expect(page.getByRole('button', { name: 'Anmelden', exact: true })).toBeVisible();
        expect(await page.evaluate('document.documentElement.lang')).toBe('de');
      } finally {
        await context.setOffline(false);
      }
    });

    test('offline without the language’s catalogs, the page opens in English instead of not at all', async ({ page, context }) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Anmelden', exact: true })).toBeVisible();
      await waitForControl(page);
      // As on a device whose worker was installed while it spoke another language.
      expect(await page.evaluate(`caches.delete('${CATALOG_CACHE}')`)).toBe(true);
      await clearHttpCache(page);

      await context.setOffline(true);
      try {
        await page.reload();
        await expect(loginForm(page).submit).toBeVisible();
        expect(await page.evaluate('document.documentElement.lang')).toBe('en');
      } finally {
        await context.setOffline(false);
      }
    });
  });

  test('shows a pushed message as a notification, and a fallback for one it cannot read', async ({ baseURL }) => {
    // In the whole browser: the headless shell shows no notifications (getNotifications() stays empty).
    const browser = await chromium.launch({ executablePath: fullChromePath, args: chromeArgs, headless: true });
    const context = await browser.newContext({ baseURL: baseURL! });
    try {
      const page = await context.newPage();
      await context.grantPermissions(['notifications'], { origin: baseURL! });
      const cdp = await context.newCDPSession(page);
      const registrationId = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${baseURL!}/`);
          if (ours) resolve(ours.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      await page.goto('/login');
      await waitForControl(page);

      const push = async (data: string) => {
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId: await registrationId, data });
      };
      interface Shown {
        title: string;
        body: string;
        tag: string;
        url: string | undefined;
      }
      const shown = () =>
        page.evaluate<Shown[]>(
          'navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url })))',
        );

      await push(JSON.stringify({ title: 'Ada assigned you a task', body: 'Oil the hinges', url: '/tasks/abc', id: 'note-1' }));
      await expect.poll(shown).toContainEqual({ title: 'Ada assigned you a task', body: 'Oil the hinges', tag: 'note-1', url: '/tasks/abc' });

      await push('not json');
      await expect.poll(shown).toContainEqual({ title: 'Taskwise', body: 'You have a new notification.', tag: '', url: '/tasks' });
      await cdp.detach();
    } finally {
      await browser.close();
    }
  });

  test('a new version waits until the person clicks Reload, then takes over', async ({ page, baseURL }) => {
    const proxy = await startDeployableProxy(baseURL!);
    try {
      await page.goto(`${proxy.url}/login`);
      await waitForControl(page);
      const prompt = page.locator('.update-prompt');
      await expect(prompt).toHaveCount(0);

      // Deploy: the same worker plus an answer to "which version?".
      proxy.changeWorker(`self.addEventListener('message', (e) => { if (e.data === 'version?') e.ports[0].postMessage('v2'); });`);
      await page.evaluate('window.beforeUpdate = true; navigator.serviceWorker.ready.then((r) => r.update())');

      await expect(prompt.getByRole('status')).toHaveText('A new version is available.');
      await expectAccessible(page, 'the update prompt');
      // Nothing reloads without the click: the page and its worker are still the old ones. A
      // worker handles its messages in order, so once the waiting one has answered a message
      // sent now, it has handled any sent before (a skip-waiting request, were the app to send
      // one unasked) and would no longer be waiting.
      const answer = await page.evaluate<string>(`navigator.serviceWorker.ready.then((r) => new Promise((resolve) => {
        if (r.waiting === null) return resolve('no worker waiting');
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        r.waiting.postMessage('version?', [channel.port2]);
      }))`);
      expect(answer, 'the new version, still waiting, answers').toBe('v2');
      expect(await page.evaluate<boolean | undefined>('window.beforeUpdate')).toBe(true);
      expect(await page.evaluate<string | undefined>('navigator.serviceWorker.ready.then((r) => r.waiting?.state)')).toBe('installed');

      await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
      expect(await page.evaluate<boolean | undefined>('window.beforeUpdate')).toBeUndefined();
      await waitForControl(page);
      // Ask the worker now in charge which version it is (only the changed one answers).
      const version = await page.evaluate<string>(`new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller.postMessage('version?', [channel.port2]);
      })`);
      expect(version).toBe('v2');
      await expect(prompt).toHaveCount(0);
    } finally {
      await proxy.close();
    }
  });
});
