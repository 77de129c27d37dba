/**
 * A board's webhooks in the browser, against a real receiver on 127.0.0.1 started here (the
 * harness runs the server with OUTBOUND_ALLOW_PRIVATE) that checks every signature with
 * node:crypto: an admin adds one, copies the secret shown once, sees a task's delivery arrive and
 * in the log, redelivers it (same webhook-id), pauses, resumes and deletes it; a member does not
 * see the section. With WEB_SHOTS_DIR set, screenshots in both themes, phone and desktop.
 */
import type { Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../server/test/webhook-receiver.ts';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test } from './fixtures.ts';
import { apiAddMember, apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/webhooks-${name}.png`, fullPage: true });
};
const PHONE = { width: 360, height: 740 };

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver(() => new Date());
});
test.afterEach(async () => {
  await receiver.close();
});

/** Adds a webhook through the form; the secret the page shows. */
async function addThroughForm(page: Page, url: string, events: string[]) {
  const section = page.getByRole('region', { name: /^Webhooks/ });
  const form = section.getByRole('form', { name: 'Add webhook' });
  // The form stays open after an addition; its summary opens it the first time.
  if (!(await form.isVisible())) await section.getByText('Add webhook', { exact: true }).first().click();
  await form.getByLabel('Payload URL').fill(url);
  for (const box of await form.getByRole('checkbox').all()) await box.uncheck();
  for (const name of events) await form.getByRole('checkbox', { name }).check();
  await form.getByRole('button', { name: 'Add webhook' }).click();
  const secret = await section.getByTestId('webhook-secret').textContent();
  expect(secret).toMatch(/^whsec_/);
  return { section, secret: secret ?? '' };
}

test('an admin adds a webhook, copies its secret, sees a signed delivery arrive and in the log, redelivers it, pauses, resumes and deletes it', async ({ browser, createUser }) => {
  test.setTimeout(120_000);
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  try {
    await aliceContext.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await aliceContext.newPage();
    const shared = await apiCreateBoard(page.request, `Hooks ${randomSuffix()}`);
    await apiAddMember(page.request, shared._id, bob.email, 'member');
    await page.goto(`/boards/${shared._id}/settings`);
    const url = receiver.url('/hook');

    // A URL that is not http(s) is refused on the spot.
    const section = page.getByRole('region', { name: /^Webhooks/ });
    await expect(section.getByText('No webhooks yet.')).toBeVisible();
    await section.getByText('Add webhook', { exact: true }).first().click();
    const form = section.getByRole('form', { name: 'Add webhook' });
    await form.getByLabel('Payload URL').fill('ftp://example.com/x');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect(form.getByText('The URL must start with https:// or http://.')).toBeVisible();
    await expectAccessible(page, 'the webhook form with an error');

    await form.getByLabel('Payload URL').fill(url);
    await form.getByRole('checkbox', { name: /Task changed/ }).uncheck();
    await form.getByRole('checkbox', { name: /Task deleted/ }).uncheck();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const shown = section.getByTestId('webhook-secret');
    await expect(shown).toHaveText(/^whsec_/);
    const secret = (await shown.textContent()) ?? '';
    receiver.secrets.set('/hook', secret);
    await section.getByRole('button', { name: 'Copy secret' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(page, 'a webhook just added, its secret shown once');
    await section.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    await expect(section.getByText(url)).toBeVisible();
    await expect(section.getByText('Active', { exact: true })).toBeVisible();

    // A task on the board reaches the receiver, signed with that secret.
    await apiCreateTask(page.request, { taskTitle: 'Ship it', assignee: alice.email, boardId: shared._id });
    await expect.poll(() => receiver.at('/hook').length, { timeout: 15_000 }).toBe(1);
    const [first] = receiver.at('/hook');
    expect(first?.verified).toBe(true);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ type: 'task.created', data: { task: { taskTitle: 'Ship it' } } });

    // The log shows it delivered with the receiver's 200; Redeliver sends the same webhook-id again.
    await section.getByRole('button', { name: 'Recent deliveries' }).click();
    const log = section.getByRole('table');
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(log.getByRole('row').nth(1)).toContainText('Delivered');
    await expect(log.getByRole('row').nth(1)).toContainText('200');
    await expectAccessible(page, 'a webhook with its delivery log');
    await log.getByRole('button', { name: /^Redeliver task\.created/ }).click();
    await expect.poll(() => receiver.at('/hook').length, { timeout: 15_000 }).toBe(2);
    const [, again] = receiver.at('/hook');
    expect(again?.id).toBe(first?.id);
    expect(again?.verified).toBe(true);
    await section.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row')).toHaveCount(3);

    // Pause and resume, by keyboard.
    const pause = section.getByRole('button', { name: `Pause webhook ${url}` });
    await pause.focus();
    await page.keyboard.press('Enter');
    await expect(section.getByText('Paused', { exact: true })).toBeVisible();
    await section.getByRole('button', { name: `Resume webhook ${url}` }).click();
    await expect(section.getByText('Active', { exact: true })).toBeVisible();

    // Bob, a member, has no Webhooks section (the server answers 403 to him).
    const bobPage = await bobContext.newPage();
    await bobPage.goto(`/boards/${shared._id}/settings`);
    await expect(bobPage.getByRole('region', { name: /^Labels/ })).toBeVisible();
    await expect(bobPage.getByRole('region', { name: /^Webhooks/ })).toHaveCount(0);
    expect((await bobPage.request.get(`/api/boards/${shared._id}/webhooks`)).status()).toBe(403);

    // Deleting asks first.
    await section.getByRole('button', { name: `Delete webhook ${url}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
    await expectAccessible(page, 'deleting a webhook');
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await expect(confirm).toBeHidden();
    await expect(section.getByText('No webhooks yet.')).toBeVisible();
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test.describe('webhooks in both themes, phone and desktop', () => {
  test.use({ signedIn: true });
  test.describe.configure({ timeout: 120_000 });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      test(`${colorScheme} ${size}`, async ({ page, user }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        const shared = await apiCreateBoard(page.request, 'Website launch');
        receiver.state.answer = (path) => (path === '/down' ? 503 : path === '/gone' ? 410 : 204);
        await page.goto(`/boards/${shared._id}/settings`);
        const { section, secret } = await addThroughForm(page, receiver.url('/ok'), ['Task created', 'Comment added']);
        receiver.secrets.set('/ok', secret);
        await shoot(page, `secret-${size}-${colorScheme}`);
        await expectAccessible(page, `a webhook's secret ${colorScheme} ${size}`);
        await section.getByRole('button', { name: 'Done' }).click();
        await addThroughForm(page, receiver.url('/down'), ['Task created']);
        await section.getByRole('button', { name: 'Done' }).click();
        await apiCreateTask(page.request, { taskTitle: 'Launch checklist', assignee: user.email, boardId: shared._id });
        await expect.poll(() => receiver.at('/down').length + receiver.at('/ok').length, { timeout: 15_000 }).toBe(2);
        await section.getByRole('button', { name: `Pause webhook ${receiver.url('/ok')}` }).click();
        await expect(section.getByText('Paused', { exact: true })).toBeVisible();
        await page.reload();
        await expect(section.getByText(/^Failing since/)).toBeVisible();
        await section.getByRole('button', { name: 'Recent deliveries' }).last().click();
        await expect(section.getByRole('table')).toContainText('503');
        await shoot(page, `list-${size}-${colorScheme}`);
        await expectAccessible(page, `webhooks with a failing one ${colorScheme} ${size}`);
        // Nothing wider than the screen on a phone.
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        const wide = await page.evaluate<string[]>(`[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(-8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
        expect(overflow, wide.join('\n')).toBeLessThanOrEqual(0);
      });
    }
  }
});
