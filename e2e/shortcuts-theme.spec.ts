/** Keyboard shortcuts (n, /, ?, Esc) and dark mode (system, toggle, remembered, no flash). */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { board, boardControls } from './support/pages.ts';

const THEME_KEY = 'taskwise-theme';
const theme = (page: Page) => page.evaluate<string | undefined>('document.documentElement.dataset.theme');

test.describe('keyboard shortcuts', () => {
  test.use({ signedIn: true });

  test('n new task, / search, ? help, Esc closes; nothing fires while typing or with a modifier', async ({ page }) => {
    await page.goto('/tasks');
    const b = board(page);
    const c = boardControls(page);
    await expect(b.createTask).toBeVisible();

    await page.keyboard.press('n');
    await expect(page.getByRole('dialog', { name: 'Create Task' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.keyboard.press('/');
    await expect(c.search).toBeFocused();
    await page.keyboard.type('n?');
    await expect(c.search).toHaveValue('n?');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await c.search.fill('');

    await page.getByRole('heading', { level: 1, name: 'Tasks' }).click();
    await page.keyboard.press('Control+n'); // the browser's, not ours (a new window is not opened in tests)
    await page.keyboard.press('Alt+n');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    await expect(help.getByRole('row')).toHaveCount(5);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
  });
});

test.describe('dark mode', () => {
  test('follows the system when nothing is stored', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
    expect(await theme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => theme(page)).toBe('light');
  });

  test('the toggle is remembered across reloads and wins over the system', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/login');
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(THEME_KEY)})`)).toBe('dark');

    await page.reload();
    await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
    expect(await theme(page)).toBe('dark');
  });

  test('never flashes the wrong theme: it is set before the app’s code runs', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(THEME_KEY)}, 'dark')`);
    // Hold the app's code: whatever shows now is what the first paint shows.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await expect.poll(() => theme(page)).toBe('dark');
    // --gray-50 of the dark theme, once the stylesheet is in (it is not held).
    await expect.poll(() => page.evaluate<string>('document.body ? getComputedStyle(document.body).backgroundColor : ""')).toBe('rgb(16, 19, 28)');
    expect(await page.getByRole('button', { name: 'Dark mode' }).count()).toBe(0); // the app has not run yet
    release();
    await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  });
});
