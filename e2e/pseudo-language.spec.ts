/**
 * Every screen in the pseudo-language (en-XA: English accented and 40 % longer), on a phone's
 * 360 px: a text that reads as plain English did not go through a catalog, and a text wider than
 * its box is cut off. The data the test makes is itself accented, so only the product's own words
 * can be plain English — and the person's address, the product's name and Intl's English month
 * and day names and relative times (the pseudo-language formats dates as English).
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { apiCreateBoard, apiCreateLabel } from './support/boards-api.ts';
import { promoteUser, randomSuffix } from './support/db.ts';
import { findProblems } from './support/text-problems.ts';

test.use({ locale: 'en-XA', viewport: { width: 360, height: 740 } });

/** Words a pseudo-language page may show in plain ASCII. */
// "Test ID" is the test's single sign-on provider, named by its operator.
const ALLOWED = new Set(['Test', 'Taskwise', 'Trello', 'CSV', 'JSON', 'iCal', 'API', 'URL', 'HTTP', 'HTTPS', 'OpenID', 'Connect', 'WebAuthn', 'GitHub', 'Google', 'Esc', 'Enter', 'Alt', 'Shift', 'Ctrl', 'Tab', 'PNG', 'JPEG', 'PDF', 'SVG', 'GIF', 'WebP', 'TOTP', 'SSO', 'AM', 'PM']);
const MONTHS_AND_DAYS = /^(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun|seconds?|minutes?|hours?|days?|weeks?|months?|years?|ago|now|yesterday|tomorrow|today)$/;

async function expectTranslated(page: Page, screen: string, allowed: readonly string[]) {
  // Fonts and late chunks: the page is settled when the network is.
  await page.waitForLoadState('networkidle');
  const { english, cutOff } = await findProblems(page, { allowed });
  const words = english.filter((text) => !(text.match(/[A-Za-z]{3,}/g) ?? []).every((word) => MONTHS_AND_DAYS.test(word)));
  expect(words, `untranslated text on ${screen}`).toEqual([]);
  expect(cutOff, `text cut off at 360 px on ${screen}`).toEqual([]);
}

test('signed out: the sign-in and sign-up pages', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  // The check itself finds plain English on the page.
  await page.evaluate('document.body.insertAdjacentHTML("beforeend", "<p id=probe>Plain English words</p>")');
  expect((await findProblems(page, { allowed: [...ALLOWED] })).english).toContain('Plain English words');
  await page.evaluate('document.getElementById("probe").remove()');
  await expectTranslated(page, '/login', [...ALLOWED]);
  await page.goto('/sign-up');
  await expectTranslated(page, '/sign-up', [...ALLOWED]);
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('the board and its views, a task, the settings and the account', async ({ page, user }) => {
    const allowed = [...ALLOWED, user.fullName, ...user.fullName.split(/\s+/)];
    const created = await apiCreateBoard(page.request, 'Ƥŕōĵēćţ Ōŕĩōń');
    await apiCreateLabel(page.request, created._id, 'Ũŕĝēńţ', 'red');
    const taskId = await apiCreateTask(page.request, { taskTitle: 'Ŵŕĩţē ţĥē ŕēƥōŕţ', assignee: user.email, boardId: created._id, priority: 'high', deadline: new Date(Date.now() + 3 * 86_400_000).toISOString() });

    await page.goto('/tasks');
    await expectTranslated(page, 'all my tasks', allowed);
    await page.goto(`/boards/${created._id}`);
    await expect(page.getByText('Ŵŕĩţē ţĥē ŕēƥōŕţ').first()).toBeVisible();
    await expectTranslated(page, 'the board', allowed);
    for (const view of ['table', 'calendar', 'timeline']) {
      await page.goto(`/boards/${created._id}?view=${view}`);
      await expectTranslated(page, `the ${view} view`, allowed);
    }
    await page.goto(`/boards/${created._id}/tasks/${taskId}`);
    await expect(page.getByRole('heading', { name: 'Ŵŕĩţē ţĥē ŕēƥōŕţ' })).toBeVisible();
    await expectTranslated(page, 'the task page', allowed);
    await page.goto(`/boards/${created._id}/settings`);
    await expectTranslated(page, 'the board settings', allowed);
    await page.goto('/account');
    await expectTranslated(page, 'the account page', allowed);
  });

  // Every name here is accented, so controls are found by what they are rather than by name.
  test('the notifications panel, the keyboard shortcuts, a confirmation and the admin page', async ({ page, user, db, createUser }) => {
    const allowed = [...ALLOWED, user.fullName, ...user.fullName.split(/\s+/)];
    promoteUser(db, user.email);
    // Another account whose name is English words: the admin page lists it, as a person's own words.
    await createUser({ fullName: `Renamed Person ${randomSuffix()}` });
    const created = await apiCreateBoard(page.request, 'Ƥŕōĵēćţ Ōŕĩōń');
    await apiCreateTask(page.request, { taskTitle: 'Ŵŕĩţē ţĥē ŕēƥōŕţ', assignee: user.email, boardId: created._id });

    await page.goto(`/boards/${created._id}`);
    const card = page.getByRole('article').filter({ hasText: 'Ŵŕĩţē ţĥē ŕēƥōŕţ' });
    await expect(card).toBeVisible();
    const bell = page.locator('.bell__button');
    await bell.click();
    const panel = page.locator(`[id="${await bell.getAttribute('aria-controls')}"]`);
    await expect(panel).toBeVisible();
    await expectTranslated(page, 'the notifications panel', allowed);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    await page.keyboard.press('Shift+?');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectTranslated(page, 'the keyboard shortcuts', allowed);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // The card's last button is Delete.
    await card.getByRole('button').last().click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectTranslated(page, 'the confirmation of a deletion', allowed);
    await page.keyboard.press('Escape');

    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectTranslated(page, 'the admin page', allowed);
  });
});
