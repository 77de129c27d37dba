/** Keyboard-only use, and the side panel as a real modal dialog. */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board, countText, loginForm, nav } from './support/pages.ts';

const isFocused = async (page: Page, locator: Locator) => (await locator.and(page.locator(':focus')).count()) === 1;
const focusInDialog = (page: Page) => page.evaluate<boolean>('Boolean(document.activeElement && document.activeElement.closest("[role=dialog]"))');
const focusedName = (page: Page) =>
  page.evaluate<string>('document.activeElement ? (document.activeElement.getAttribute("aria-label") || document.activeElement.textContent || document.activeElement.tagName).trim() : "none"');

/** Presses Tab until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await isFocused(page, target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached the target (focus is on "${await focusedName(page)}")`);
}

test('keyboard only: sign in, open the panel, create a task and complete it', async ({ page, user }) => {
  await page.goto('/login');
  const login = loginForm(page);
  await tabTo(page, login.email);
  await page.keyboard.type(user.email);
  await page.keyboard.press('Tab');
  await expect(login.password).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);

  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Open your board' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === '/tasks');

  const b = board(page);
  await tabTo(page, b.createTask);
  await page.keyboard.press('Enter');
  await expect(b.dialog).toBeVisible();
  expect(await focusInDialog(page)).toBe(true);

  const taskTitle = `Keyboard task ${randomSuffix()}`;
  await tabTo(page, b.form.taskTitle);
  await page.keyboard.type(taskTitle);
  await tabTo(page, b.form.assignee);
  await page.keyboard.type(user.email);
  await tabTo(page, b.form.priority);
  await page.keyboard.press('ArrowDown'); // normal → the next priority in the list
  await expect(b.form.priority).not.toHaveValue('normal');
  await tabTo(page, b.form.submit);
  await page.keyboard.press('Enter');
  await expect(b.card(taskTitle)).toBeVisible();
  if (await b.dialog.isVisible()) await page.keyboard.press('Escape');
  await expect(b.dialog).toHaveCount(0);

  const complete = b.card(taskTitle).getByRole('button', { name: /^Mark complete/i });
  await tabTo(page, complete);
  await page.keyboard.press('Enter');
  await expect(b.done.getByRole('article').filter({ hasText: taskTitle })).toBeVisible();
  await expect(b.doneCount).toHaveText(countText(1));
});

test.describe('the Create Task panel', () => {
  test.use({ signedIn: true });

  test('traps focus while open, closes on Esc and returns focus to "Create Task"', async ({ page }) => {
    await page.goto('/tasks');
    const b = board(page);
    await b.createTask.focus();
    await page.keyboard.press('Enter');
    await expect(b.dialog).toBeVisible();
    expect(await focusInDialog(page)).toBe(true);

    const focusables = await b.dialog.locator('a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])').count();
    for (let i = 0; i < focusables + 3; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page), `after Tab #${i + 1} focus is on "${await focusedName(page)}"`).toBe(true);
    }
    for (let i = 0; i < focusables + 3; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog(page), `after Shift+Tab #${i + 1} focus is on "${await focusedName(page)}"`).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(b.dialog).toHaveCount(0);
    await expect(b.createTask).toBeFocused();
  });

  test('closes with its close button and with a click on the overlay, returning focus', async ({ page }) => {
    await page.goto('/tasks');
    const b = board(page);
    await b.createTask.click();
    await expect(b.dialog).toBeVisible();
    await b.form.close.click();
    await expect(b.dialog).toHaveCount(0);
    await expect(b.createTask).toBeFocused();

    await b.createTask.click();
    await expect(b.dialog).toBeVisible();
    // The overlay is the area outside the panel; the panel slides in from one side.
    const box = (await b.dialog.boundingBox())!;
    const viewport = page.viewportSize()!;
    const x = box.x > viewport.width / 2 ? 10 : viewport.width - 10;
    await page.mouse.click(x, viewport.height / 2);
    await expect(b.dialog).toHaveCount(0);
    await expect(b.createTask).toBeFocused();
  });
});
