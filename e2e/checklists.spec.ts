/**
 * Checklists on the task page: add, tick, edit, delete (and undo), reorder by keyboard and by
 * drag; a second person sees the ticks live; cards show the progress. With WEB_SHOTS_DIR set,
 * the task page and a card are also saved as screenshots in both themes, phone and desktop.
 */
import type { Locator, Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, test, twoPeople } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { THEMES_AND_SIZES } from './support/layout.ts';
import { board } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

async function apiAddItems(page: Page, taskId: string, texts: readonly string[], doneCount = 0): Promise<void> {
  for (const [index, text] of texts.entries()) {
    const res = await page.request.post(`/api/tasks/${taskId}/checklist`, { data: { text } });
    expect(res.status(), await res.text()).toBe(201);
    if (index < doneCount) {
      const { data } = (await res.json()) as { data: { item: { _id: string } } };
      const tick = await page.request.patch(`/api/tasks/${taskId}/checklist/${data.item._id}`, { data: { done: true } });
      expect(tick.status()).toBe(200);
    }
  }
}

const checklist = (page: Page) => {
  const section = page.getByRole('region', { name: 'Checklist' });
  return {
    section,
    items: section.getByRole('listitem'),
    check: (text: string) => section.getByRole('checkbox', { name: text, exact: true }),
    newItem: section.getByRole('textbox', { name: 'New checklist item' }),
    handle: (text: string) => section.getByRole('button', { name: new RegExp(`^Move “${text}”`) }),
    row: (text: string): Locator => section.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: text, exact: true }) }),
    progress: section.getByText(/^\d+ of \d+ done$/),
    announced: section.getByRole('status'),
  };
};

const order = async (page: Page) => checklist(page).items.locator('label').allTextContents();

test.describe('a task’s checklist', () => {
  test.use({ signedIn: true });

  test('add, tick, edit in place, delete with undo, and reorder by keyboard and by drag', async ({ page, user }) => {
    const title = `Pack for the trip ${randomSuffix()}`;
    const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
    await page.goto(`/tasks/${id}`);
    const c = checklist(page);
    await expect(c.section).toBeVisible();

    // Add: Enter adds and keeps the field for the next one.
    await c.newItem.fill('Passport');
    await c.newItem.press('Enter');
    await expect(c.newItem).toBeFocused();
    await c.newItem.fill('Charger');
    await c.newItem.press('Enter');
    await c.newItem.fill('Sunscreen');
    await c.newItem.press('Enter');
    await expect.poll(() => order(page)).toEqual(['Passport', 'Charger', 'Sunscreen']);
    await expect(c.progress).toHaveText('0 of 3 done');
    await expectAccessible(page, 'task page with a checklist');

    // Tick: the progress and the card follow.
    await c.check('Charger').check();
    await expect(c.progress).toHaveText('1 of 3 done');
    await expect(page.getByRole('region', { name: 'Activity' }).getByText('checked “Charger”')).toBeVisible();

    // Edit in place: Esc gives up and leaves the task open; Enter saves.
    await c.section.getByRole('button', { name: 'Edit “Sunscreen”' }).click();
    const text = c.section.getByRole('textbox', { name: 'Item text' });
    await text.fill('Hat');
    await text.press('Escape');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(c.check('Sunscreen')).toBeVisible();
    await c.section.getByRole('button', { name: 'Edit “Sunscreen”' }).click();
    await text.fill('Sunscreen SPF 50');
    await text.press('Enter');
    await expect(c.check('Sunscreen SPF 50')).toBeVisible();

    // Reorder by keyboard: the arrow keys on the handle, Alt+arrows on the item; announced.
    await c.handle('Sunscreen SPF 50').focus();
    await page.keyboard.press('ArrowUp');
    await expect(c.announced).toHaveText('“Sunscreen SPF 50” moved to position 2 of 3.');
    await expect.poll(() => order(page)).toEqual(['Passport', 'Sunscreen SPF 50', 'Charger']);
    await expect(c.handle('Sunscreen SPF 50')).toBeFocused();
    await c.check('Passport').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => order(page)).toEqual(['Sunscreen SPF 50', 'Passport', 'Charger']);

    // Reorder by drag: the handle of "Charger" onto the top edge of the first item.
    await c.handle('Charger').dragTo(c.row('Sunscreen SPF 50'), { targetPosition: { x: 40, y: 4 } });
    await expect.poll(() => order(page)).toEqual(['Charger', 'Sunscreen SPF 50', 'Passport']);

    // Delete at once; Undo puts it back in its place, ticked as it was.
    await c.section.getByRole('button', { name: 'Delete “Charger”' }).click();
    await expect.poll(() => order(page)).toEqual(['Sunscreen SPF 50', 'Passport']);
    // Undo is two writes (the item comes back appended, then is put in its place with its tick):
    // the reload below waits for the second one's answer, as a person would see it saved.
    const placed = page.waitForResponse((res) => res.request().method() === 'PATCH' && res.url().includes('/checklist/'));
    await c.section.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => order(page)).toEqual(['Charger', 'Sunscreen SPF 50', 'Passport']);
    await expect(c.check('Charger')).toBeChecked();
    expect((await placed).status()).toBe(200);

    // All of it was saved: a reload shows the same list.
    await page.reload();
    await expect.poll(() => order(page)).toEqual(['Charger', 'Sunscreen SPF 50', 'Passport']);
    await expect(c.check('Charger')).toBeChecked();
    await expect(c.progress).toHaveText('1 of 3 done');
    await expectAccessible(page, 'task page checklist after changes');
  });

  test('a card shows the progress as “2/5”, read as “2 of 5 checklist items done”', async ({ page, user }) => {
    const title = `Move house ${randomSuffix()}`;
    const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
    await apiAddItems(page, id, ['Boxes', 'Van', 'Keys', 'Post', 'Internet'], 2);
    await page.goto('/tasks');
    const card = board(page).card(title);
    await expect(card.getByText('2 of 5 checklist items done')).toBeAttached();
    await expect(card.getByText('2/5', { exact: true })).toBeVisible();
  });
});

test('two people ticking different items at once both see both ticks, live', async ({ browser, createUser }) => {
  const { bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    // Alice's task for Bob: both may change it.
    const title = `Prepare the talk ${randomSuffix()}`;
    const id = await apiCreateTask(alicePage.request, { taskTitle: title, assignee: bob.email });
    await apiAddItems(alicePage, id, ['Slides', 'Demo', 'Handout']);
    await alicePage.goto(`/tasks/${id}`);
    await bobPage.goto(`/tasks/${id}`);
    const a = checklist(alicePage);
    const b = checklist(bobPage);
    await expect(a.check('Slides')).toBeVisible();
    await expect(b.check('Demo')).toBeVisible();
    // Both streams open, so neither misses the other's change.
    await expect(alicePage.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');
    await expect(bobPage.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

    await Promise.all([a.check('Slides').check(), b.check('Demo').check()]);

    for (const c of [a, b]) {
      await expect(c.check('Slides')).toBeChecked();
      await expect(c.check('Demo')).toBeChecked();
      await expect(c.check('Handout')).not.toBeChecked();
      await expect(c.progress).toHaveText('2 of 3 done');
    }
    // And the next change still goes through for both (the versions they hold are current).
    await b.newItem.fill('Water');
    await b.newItem.press('Enter');
    await expect(a.check('Water')).toBeVisible();
  } finally {
    await close();
  }
});

/** The task page's checklist and a card with "2/5" and a repeat mark, in both themes, phone and desktop. */
test.describe('checklist screens in both themes', () => {
  test.use({ signedIn: true });
  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`${colorScheme} ${label}`, async ({ page, user }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const title = `Plan the launch ${randomSuffix()}`;
      const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const id = await apiCreateTask(page.request, { taskTitle: title, workTitle: 'Website', assignee: user.email, deadline, priority: 'high' });
      const res = await page.request.patch(`/api/tasks/${id}`, { data: { repeat: { every: 2, unit: 'week' }, version: 1 } });
      expect(res.status(), await res.text()).toBe(200);
      await apiAddItems(page, id, ['Write the announcement', 'Check the pricing page', 'Book the photographer', 'Send the newsletter', 'Update the changelog'], 2);
      await page.goto('/tasks');
      const card = board(page).card(title);
      await expect(card.getByText('2/5', { exact: true })).toBeVisible();
      await expect(card.getByText('Every 2 weeks')).toBeAttached();
      if (SHOTS !== undefined) await card.screenshot({ path: `${SHOTS}/card-${label}-${colorScheme}.png` });
      await expectAccessible(page, `board with checklist card ${colorScheme} ${label}`);
      await page.goto(`/tasks/${id}`);
      await expect(checklist(page).progress).toHaveText('2 of 5 done');
      await checklist(page).section.scrollIntoViewIfNeeded();
      if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/task-checklist-${label}-${colorScheme}.png` });
      await expectAccessible(page, `task page checklist ${colorScheme} ${label}`);
      await page.getByRole('button', { name: /^Change repeat/ }).click();
      await expect(page.getByRole('group', { name: 'Repeat' })).toBeVisible();
      await page.getByRole('group', { name: 'Repeat' }).scrollIntoViewIfNeeded();
      if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/task-repeat-${label}-${colorScheme}.png` });
      await expectAccessible(page, `task page repeat editor ${colorScheme} ${label}`);
    });
  }
});
