/**
 * The device copy: after one online visit the board, the task pages and comments seen come from
 * IndexedDB with no network (the app shell from the service worker); a page never opened says so;
 * the status line says where the changes stand; the copy survives a browser restart; Logout empties
 * it. Also measures how soon the first cards show from the copy, and how much the device stores.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOGGED_IN_FLAG } from '../shared/constants.ts';
import { apiCreateTask, expect, expectAccessible, LOGGED_IN_VALUE, signedInState, test, type TestUser } from './fixtures.ts';
import { readCopy } from './support/device-copy.ts';
import { apiCreateBoard } from './support/boards-api.ts';
import { board, cardActions, taskPage } from './support/pages.ts';
import { chromeArgs, chromePath, tmpRoot } from './support/paths.ts';

/** Where the screenshots and the measurements go (looked at by people, not asserted). */
const SHOTS = process.env.OFFLINE_SHOTS_DIR ?? join(tmpRoot, 'shots', 'offline');

const NOT_OPENED = 'This page hasn’t been opened on this device yet.';

/** Waits until a service worker controls the page (it claims the page on first activation). */
async function waitForControl(page: Page): Promise<void> {
  // Polled from here: waitForFunction evaluates its string with eval, which the app's CSP forbids.
  await expect.poll(() => page.evaluate<string | null>('navigator.serviceWorker.controller?.state ?? null'), { timeout: 30_000 }).toBe('activated');
}

const statusLine = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('status');

/** A task with a comment, seen on its own page, and one never opened on this device. */
async function seed(page: Page, user: TestUser) {
  const seenTitle = `Oil the hinges ${Date.now()}`;
  const seenId = await apiCreateTask(page.request, { taskTitle: seenTitle, assignee: user.email });
  const comment = `Use the light oil ${Date.now()}`;
  const res = await page.request.post(`/api/tasks/${seenId}/comments`, { data: { body: comment } });
  expect(res.status()).toBe(201);
  const unseenId = await apiCreateTask(page.request, { taskTitle: `Never opened ${Date.now()}`, assignee: user.email });
  return { seenTitle, seenId, comment, unseenId };
}

/** The board and the seen task page visited online, and the copy saved with both. */
async function visitOnline(page: Page, seeded: Awaited<ReturnType<typeof seed>>): Promise<void> {
  await page.goto('/tasks');
  await expect(board(page).card(seeded.seenTitle)).toBeVisible();
  await waitForControl(page);
  await page.goto(`/tasks/${seeded.seenId}`);
  await expect(page.getByText(seeded.comment)).toBeVisible();
  // Saved within about a second of being seen.
  await expect.poll(() => readCopy(page)).toContain(seeded.comment);
  await page.goto('/tasks');
  await expect(board(page).card(seeded.seenTitle)).toBeVisible();
}

test.describe('the device copy', () => {
  test.use({ signedIn: true });

  test('offline: the board and a seen task with its comments open from the copy; a never-opened task says so; back online all is saved', async ({ page, context, user }) => {
    // Three axe runs and a dozen loads on a shared machine.
    test.slow();
    const seeded = await seed(page, user);
    const unopened = await apiCreateBoard(page.request, `Garden ${Date.now()}`);
    await visitOnline(page, seeded);

    await context.setOffline(true);
    await page.reload();
    await expect(board(page).card(seeded.seenTitle)).toBeVisible();
    await expect(statusLine(page)).toHaveText('Offline');
    // Signed in as the person, not "Guest", and no error about the failed /users/me.
    await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expectAccessible(page, 'the offline board');

    await page.goto(`/tasks/${seeded.seenId}`);
    await expect(page.getByRole('dialog', { name: seeded.seenTitle })).toBeVisible();
    await expect(page.getByText(seeded.comment)).toBeVisible();
    await expectAccessible(page, 'a task page offline');

    await page.goto(`/tasks/${seeded.unseenId}`);
    await expect(page.getByText(NOT_OPENED)).toBeVisible();
    await expectAccessible(page, 'a task page never opened, offline');

    // A board in the switcher, never opened here: its name, and the same words.
    await page.goto(`/boards/${unopened._id}`);
    await expect(page.getByRole('heading', { level: 1, name: unopened.name })).toBeVisible();
    await expect(page.getByText(NOT_OPENED)).toBeVisible();

    await page.goto('/tasks');
    await expect(board(page).card(seeded.seenTitle)).toBeVisible();
    await context.setOffline(false);
    await expect(statusLine(page)).toHaveText('All changes saved');
  });

  test('screenshots of the offline board and the status line, 360 and 1280 px, light and dark', async ({ page, context, user }) => {
    test.slow();
    mkdirSync(SHOTS, { recursive: true });
    const seeded = await seed(page, user);
    await visitOnline(page, seeded);
    await context.setOffline(true);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.reload();
        await expect(board(page).card(seeded.seenTitle)).toBeVisible();
        await expect(statusLine(page)).toHaveText('Offline');
        const box = await statusLine(page).boundingBox();
        // On the screen, inside the width, at every size.
        expect(box).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        await page.screenshot({ path: join(SHOTS, `offline-board-${width}-${colorScheme}.png`) });
        await page.locator('header.nav').screenshot({ path: join(SHOTS, `status-line-${width}-${colorScheme}.png`) });
      }
    }
    await page.goto(`/tasks/${seeded.unseenId}`);
    await expect(page.getByText(NOT_OPENED)).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'never-opened-360-dark.png') });
    await context.setOffline(false);
  });

  test('leaving the page saves at once: an offline reload right after the comments arrive still shows them', async ({ page, context, user }) => {
    const seeded = await seed(page, user);
    await page.goto('/tasks');
    await waitForControl(page);
    await page.goto(`/tasks/${seeded.seenId}`);
    await expect(page.getByText(seeded.comment)).toBeVisible();
    // Well within the one-second save interval: only the save on leaving can have kept them.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(seeded.comment)).toBeVisible();
    await context.setOffline(false);
  });

  test('Logout empties the copy: after it, offline, no task data is readable on the device', async ({ page, context, user }) => {
    const seeded = await seed(page, user);
    await visitOnline(page, seeded);
    expect(await readCopy(page)).toContain(user.email);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    const after = await readCopy(page);
    expect(after).not.toContain(seeded.seenTitle);
    expect(after).not.toContain(seeded.comment);
    expect(after).not.toContain(user.email);
    await context.setOffline(false);
  });

});

/** A persistent profile's first tab, signed in as `user` (the session cookie and the app's flag). */
async function signInProfile(context: BrowserContext, user: TestUser): Promise<Page> {
  const state = (await signedInState(user)) as { cookies: Parameters<BrowserContext['addCookies']>[0] };
  await context.addCookies(state.cookies);
  // The app's signed-in flag before its first page, as a sign-in in the app leaves it.
  await context.addInitScript(`localStorage.setItem(${JSON.stringify(LOGGED_IN_FLAG)}, ${JSON.stringify(LOGGED_IN_VALUE)})`);
  return context.pages()[0] ?? (await context.newPage());
}

interface Profile {
  context: BrowserContext;
  tab: Page;
  made: Awaited<ReturnType<typeof seed>>;
  /** Closes the browser and starts it again on the same profile, offline; its first tab. */
  restartOffline: () => Promise<Page>;
}

/**
 * A browser on a persistent profile of its own (as a real browser keeps its storage across
 * restarts): signed in as `user`, the seeded board and task page visited online. The profile
 * is deleted afterwards.
 */
async function withProfile(user: TestUser, baseURL: string, run: (profile: Profile) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpRoot, 'offline-profile-'));
  const launch = () => chromium.launchPersistentContext(dir, { executablePath: chromePath, args: chromeArgs, headless: true, baseURL });
  const profile = { context: await launch() } as Profile;
  try {
    profile.tab = await signInProfile(profile.context, user);
    profile.made = await seed(profile.tab, user);
    await visitOnline(profile.tab, profile.made);
    profile.restartOffline = async () => {
      await profile.context.close();
      profile.context = await launch();
      await profile.context.setOffline(true);
      profile.tab = profile.context.pages()[0] ?? (await profile.context.newPage());
      return profile.tab;
    };
    await run(profile);
  } finally {
    await profile.context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the copy survives a browser restart: a persistent profile opens the board offline', async ({ user, baseURL }) => {
  await withProfile(user, baseURL!, async ({ made, restartOffline }) => {
    const tab = await restartOffline();
    await tab.goto('/tasks');
    await expect(board(tab).card(made.seenTitle)).toBeVisible();
    await expect(statusLine(tab)).toHaveText('Offline');
    await tab.goto(`/tasks/${made.seenId}`);
    await expect(tab.getByText(made.comment)).toBeVisible();
  });
});

test('changes made offline survive a reload and a browser restart, then reach the server once, when the network returns', async ({ user, baseURL }) => {
  await withProfile(user, baseURL!, async (profile) => {
    const { made } = profile;
    let { tab } = profile;
    // Offline: a comment on the seen task, then completing it from the board.
    await profile.context.setOffline(true);
    const note = `Written offline ${Date.now()}`;
    await tab.goto(`/tasks/${made.seenId}`);
    const page = taskPage(tab);
    await page.newComment.fill(note);
    await page.postComment.click();
    await expect(page.comments).toContainText(note);
    await tab.goto('/tasks');
    await cardActions(board(tab).card(made.seenTitle)).complete.click();
    await expect(board(tab).done.getByRole('article', { name: made.seenTitle })).toBeVisible();
    await expect(statusLine(tab)).toHaveText('Offline — 2 changes waiting');

    // A reload, still offline: both are still shown, and still waiting.
    await tab.reload();
    await expect(board(tab).done.getByRole('article', { name: made.seenTitle })).toBeVisible();
    await expect(statusLine(tab)).toHaveText('Offline — 2 changes waiting');
    await expectAccessible(tab, 'offline, two changes waiting, after a reload');

    // The browser closes and starts again, offline.
    tab = await profile.restartOffline();
    await tab.goto(`/tasks/${made.seenId}`);
    await expect(taskPage(tab).comments).toContainText(note);
    await expect(statusLine(tab)).toHaveText('Offline — 2 changes waiting');

    // Back online: sent, in order, each once.
    await profile.context.setOffline(false);
    await expect(statusLine(tab)).toHaveText('All changes saved', { timeout: 15_000 });
    const task = await tab.request.get(`/api/tasks/${made.seenId}`);
    expect(((await task.json()) as { data: { task: { status: string } } }).data.task.status).toBe('done');
    const comments = await tab.request.get(`/api/tasks/${made.seenId}/comments`);
    const bodies = ((await comments.json()) as { data: { comments: { body: string }[] } }).data.comments.map((c) => c.body);
    expect(bodies.filter((body) => body === note)).toHaveLength(1);
  });
});
