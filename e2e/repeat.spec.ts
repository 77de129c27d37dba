/**
 * Repeating tasks: the Repeat control of the create form and the task page, the repeat mark on
 * cards, and completing a repeating task — its next occurrence shows live on another person's
 * board with the next deadline. With WEB_SHOTS_DIR set, the control is also saved as
 * screenshots in both themes, phone and desktop.
 */
import type { Page } from '@playwright/test';
import { nextDeadline } from '../shared/repeat.ts';
import { apiCreateTask, expect, expectAccessible, test, twoPeople } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { THEMES_AND_SIZES } from './support/layout.ts';
import { board, cardActions } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

const repeatControl = (scope: Page) => {
  const group = scope.getByRole('dialog').getByRole('group', { name: 'Repeat' });
  return {
    group,
    /** The select while the task does not repeat ("Repeat"), or its unit once it does. */
    select: group.getByRole('combobox'),
    every: group.getByRole('spinbutton', { name: 'Every' }),
  };
};

/** A whole minute a few days ahead, as the API stores deadlines. */
function deadlineInDays(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCSeconds(0, 0);
  return date.toISOString();
}

async function apiMakeRepeat(page: Page, id: string, version: number, repeat: { every: number; unit: 'day' | 'week' | 'month' | 'year' }) {
  const res = await page.request.patch(`/api/tasks/${id}`, { data: { repeat, version } });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('the Repeat control', () => {
  test.use({ signedIn: true });

  test('needs a deadline; a repeating task gets a repeat mark; the server’s refusal shows by the field', async ({ page, user }) => {
    await page.goto('/tasks');
    const b = board(page);
    await b.createTask.click();
    const r = repeatControl(page);
    // No deadline yet: the control is off and says why.
    await expect(r.select).toBeDisabled();
    await expect(r.group).toContainText('Set a deadline first');

    const title = `Water the plants ${randomSuffix()}`;
    await b.form.taskTitle.fill(title);
    await b.form.assignee.fill(user.email);
    await b.form.deadline.fill(`${new Date().getFullYear() + 1}-03-15T09:00`);
    await expect(r.select).toBeEnabled();
    await r.select.selectOption({ label: 'Every week' });
    await r.every.fill('2');
    await expect(r.select.locator('option:checked')).toHaveText('weeks');
    await expectAccessible(page, 'create form with a repeat');

    // The server decides: without the deadline it answers 400 for `repeat`, shown by the field.
    await b.form.deadline.fill('');
    await b.form.submit.click();
    await expect(r.group).toContainText('A repeating task needs a deadline.');
    await expect(r.select).toHaveAttribute('aria-invalid', 'true');

    await b.form.deadline.fill(`${new Date().getFullYear() + 1}-03-15T09:00`);
    await b.form.submit.click();
    await expect(b.card(title)).toBeVisible();
    await b.form.close.click();
    await expect(b.card(title).getByText('Every 2 weeks')).toBeAttached();
    await expectAccessible(page, 'board with a repeating task');
  });

  test('the task page changes the repeat and keeps it from a task without a deadline', async ({ page, user }) => {
    const title = `Pay the rent ${randomSuffix()}`;
    const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email, deadline: deadlineInDays(5) });
    await page.goto(`/tasks/${id}`);
    await page.getByRole('button', { name: 'Change repeat: Does not repeat' }).click();
    const r = repeatControl(page);
    await r.select.selectOption({ label: 'Every month' });
    await page.getByRole('button', { name: 'Save repeat' }).click();
    await expect(page.getByRole('button', { name: 'Change repeat: Every month' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Activity' }).getByText('Every month')).toBeVisible();

    const plain = await apiCreateTask(page.request, { taskTitle: `No date ${randomSuffix()}`, assignee: user.email });
    await page.goto(`/tasks/${plain}`);
    await page.getByRole('button', { name: 'Change repeat: Does not repeat' }).click();
    await expect(r.select).toBeDisabled();
    await expect(r.group).toContainText('Set a deadline first');
    // Esc closes the editor, not the task.
    await page.getByRole('button', { name: 'Save repeat' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Change repeat: Does not repeat' })).toBeVisible();
    await expect(page.getByRole('dialog')).toBeVisible();
  });
});

test('completing a repeating task shows its next occurrence live on another board, with the next deadline', async ({ browser, createUser }) => {
  const { bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const title = `Send the weekly report ${randomSuffix()}`;
    const deadline = deadlineInDays(2);
    const repeat = { every: 1, unit: 'week' } as const;
    const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email, deadline });
    await apiMakeRepeat(alicePage, id, 1, repeat);

    for (const page of [alicePage, bobPage]) {
      await page.goto('/tasks');
      await expect(board(page).todo.getByRole('article', { name: title })).toBeVisible();
      await expect(page.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');
    }

    await cardActions(board(alicePage).card(title)).complete.click();
    const next = nextDeadline(deadline, repeat, new Date());
    // Alice is told when the next one is due.
    await expect(alicePage.getByRole('status').filter({ hasText: /^Next occurrence due / })).toBeVisible();

    for (const page of [alicePage, bobPage]) {
      const todo = board(page).todo.getByRole('article', { name: title });
      await expect(todo.locator('time')).toHaveAttribute('datetime', next);
      await expect(todo.getByText('Every week')).toBeAttached();
      // The completed one repeats no more.
      const done = board(page).done.getByRole('article', { name: title });
      await expect(done).toBeVisible();
      await expect(done.getByText('Every week')).toHaveCount(0);
    }

    // The new one's activity says which task it repeats, with a link to it.
    await board(bobPage).todo.getByRole('article', { name: title }).getByRole('link', { name: title }).click();
    const activity = bobPage.getByRole('region', { name: 'Activity' });
    await expect(activity.getByText('created it as the next occurrence of')).toBeVisible();
    await activity.getByRole('link', { name: title }).click();
    await expect(bobPage).toHaveURL(new RegExp(`/tasks/${id}$`));
  } finally {
    await close();
  }
});

test.describe('the Repeat control in both themes', () => {
  test.use({ signedIn: true });
  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`${colorScheme} ${label}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      await page.goto('/tasks');
      const b = board(page);
      await b.createTask.click();
      await b.form.deadline.fill(`${new Date().getFullYear() + 1}-03-15T09:00`);
      const r = repeatControl(page);
      await r.select.selectOption({ label: 'Every month' });
      await r.every.fill('3');
      // Above the form's sticky Create Task bar.
      await r.group.hover();
      await page.mouse.wheel(0, 400);
      if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/create-repeat-${label}-${colorScheme}.png` });
      await expectAccessible(page, `create form repeat ${colorScheme} ${label}`);
    });
  }
});
