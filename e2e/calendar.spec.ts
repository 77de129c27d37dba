/**
 * The calendar feed on the account page: the secret address shown read-only with Copy (the
 * clipboard then holds it), the feed read from that address without a session and parsed by
 * ical.js, and "Make a new URL" after a confirmation, which kills the old address. axe checks
 * the section and its dialog in both themes, on a phone and a desktop.
 */
import ICAL from 'ical.js';
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, test } from './fixtures.ts';
import { expectNoSidewaysScroll, THEMES_AND_SIZES } from './support/layout.ts';

test.use({ signedIn: true, permissions: ['clipboard-read', 'clipboard-write'] });

const sectionOf = (page: Page) => page.getByRole('region', { name: 'Calendar' });
const addressOf = async (page: Page) => sectionOf(page).getByLabel('Calendar address').inputValue();

/** The summaries of the feed at `url`, read without the page's session. */
async function summariesAt(page: Page, url: string): Promise<string[]> {
  const res = await page.request.get(new URL(url).pathname, { headers: { cookie: '' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await res.text()) as unknown[]);
  return calendar.getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('summary')));
}

test('copies the calendar address, whose feed holds my dated tasks; a new URL kills the old one', async ({ page, user }) => {
  const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
  await apiCreateTask(page.request, { taskTitle: 'Send the invoices', assignee: user.email, deadline });
  await apiCreateTask(page.request, { taskTitle: 'No date on this one', assignee: user.email });

  await page.goto('/account');
  const section = sectionOf(page);
  await expect(section.getByRole('heading', { name: 'Calendar' })).toBeVisible();
  const field = section.getByLabel('Calendar address');
  await expect(field).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(field).toHaveAttribute('readonly', '');
  const first = await addressOf(page);

  await section.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('The calendar URL was copied.')).toBeVisible();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(first);
  expect(await summariesAt(page, first)).toEqual(['Send the invoices']);

  await section.getByRole('button', { name: 'Make a new URL' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Make a new calendar URL?' });
  await expect(dialog).toContainText('stops working at once');
  await expectAccessible(page, 'the new calendar URL dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(field).toHaveValue(first);

  await section.getByRole('button', { name: 'Make a new URL' }).click();
  await dialog.getByRole('button', { name: 'Make a new URL' }).click();
  await expect(dialog).toBeHidden();
  await expect(field).not.toHaveValue(first);
  const second = await addressOf(page);
  expect((await page.request.get(new URL(first).pathname)).status()).toBe(404);
  expect(await summariesAt(page, second)).toEqual(['Send the invoices']);
  // The page shows the same address after a reload.
  await page.reload();
  await expect(sectionOf(page).getByLabel('Calendar address')).toHaveValue(second);
});

test.describe('the section in both themes', () => {
  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`${colorScheme} ${label}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      await page.goto('/account');
      const section = sectionOf(page);
      await expect(section.getByLabel('Calendar address')).toHaveValue(/\.ics$/);
      await section.scrollIntoViewIfNeeded();
      await expectAccessible(page, `the calendar section ${colorScheme} ${label}`);
      await expectNoSidewaysScroll(page);
    });
  }
});
