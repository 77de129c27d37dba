/**
 * Import and export in the browser: a Trello board export (the server tests' fixture) imported
 * from the "New board" dialog opens as a new board with what came over; the board settings'
 * "Import and export" section in both themes at 360 and 1280 px, with axe, and a refused export
 * shown in the dialog. (The CSV routes come with another change; their controls are unit-tested.)
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll, THEMES_AND_SIZES } from './support/layout.ts';
import { board } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;
const FIXTURE = fileURLToPath(new URL('../server/test/fixtures/trello-board.json', import.meta.url));

async function shoot(page: Page, name: string) {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test.use({ signedIn: true });

test('imports a Trello export from "New board" by keyboard and opens the new board with what came over', async ({ page }) => {
  await page.goto('/tasks');
  // The sidebar's "New board" (desktop), reached and pressed by keyboard.
  const newBoardButton = page.getByRole('button', { name: 'New board' });
  await newBoardButton.focus();
  await page.keyboard.press('Enter');
  const newBoard = page.getByRole('dialog', { name: 'New board' });
  const toTrello = newBoard.getByRole('button', { name: 'Import from Trello…' });
  await toTrello.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Import from Trello' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Trello export (JSON)').setInputFiles(FIXTURE);
  await expectAccessible(page, 'the Trello import dialog');
  await dialog.getByRole('button', { name: 'Import board' }).focus();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/boards\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Website relaunch 🚀' })).toBeVisible();
  await expect(page.getByText('Imported 5 tasks, 6 labels, 5 checklist items and 3 comments.')).toBeVisible();
  for (const title of ['Card QA', 'Draft the sitemap', 'Überprüfen: Impressum & Datenschutz']) await expect(board(page).card(title)).toBeVisible();
  await expect(board(page).card('An archived card')).toHaveCount(0);
  await expectAccessible(page, 'a board imported from Trello');
});

test.describe('the "Import and export" section', () => {
  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`${colorScheme} ${label}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const created = await apiCreateBoard(page.request, `Garden ${randomSuffix()}`);
      await page.goto(`/boards/${created._id}/settings`);
      const section = page.getByRole('region', { name: 'Import and export' });
      await section.scrollIntoViewIfNeeded();
      await expect(section.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/boards/${created._id}/export.csv`);
      await expect(section.getByRole('form', { name: 'Import CSV' })).toBeVisible();
      await expectAccessible(page, `board settings' import and export (${colorScheme}, ${label})`);
      await expectNoSidewaysScroll(page);
      await shoot(page, `import-export-settings-${colorScheme}-${label}`);

      // A file that is not a Trello export: the dialog says why and stays open.
      await section.getByRole('button', { name: 'Import from Trello…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import from Trello' });
      await dialog.getByLabel('Trello export (JSON)').setInputFiles({ name: 'not-trello.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
      await dialog.getByRole('button', { name: 'Import board' }).click();
      const alert = dialog.getByRole('alert');
      await expect(alert).toContainText('This is not a Trello board export');
      await expect(alert.getByRole('listitem')).toHaveCount(3);
      // Focus moves to the message, so keyboard and screen-reader users land on it.
      await expect(dialog.locator('.import-form__alert')).toBeFocused();
      await expectAccessible(page, `a refused Trello export (${colorScheme}, ${label})`);
      await expectNoSidewaysScroll(page);
      await shoot(page, `import-trello-refused-${colorScheme}-${label}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });
  }
});
