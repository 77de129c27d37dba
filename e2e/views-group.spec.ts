/**
 * Group by: the board grouped by priority, a card dragged into another lane and column (its
 * priority and column changed, still so after a reload); the table grouped by assignee;
 * `?group=` kept by a reload; and the lanes on a phone, checked by axe in both themes.
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, test } from './fixtures.ts';
import { apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

test.use({ signedIn: true });

/** A lane by its group's name (its header is a button "Name, N tasks"). */
const lane = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}, \\d+ tasks?$`) });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

async function seed(page: Page, assignee: string) {
  const board = await apiCreateBoard(page.request, `Group ${randomSuffix()}`);
  const other = `colleague-${randomSuffix()}@example.com`;
  const tasks = [
    { taskTitle: 'Fix the login', priority: 'urgent', assignee },
    { taskTitle: 'Write the notes', priority: 'low', assignee },
    { taskTitle: 'Plan the launch', priority: 'low', assignee: other },
  ] as const;
  for (const task of tasks) await apiCreateTask(page.request, { ...task, boardId: board._id });
  return { board, other };
}

test('the board grouped by priority: a card dragged to another lane and column changes its priority and column', async ({ page, user }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { board } = await seed(page, user.email);
  await page.goto(`/boards/${board._id}`);
  await page.getByRole('combobox', { name: 'Group' }).selectOption('priority');
  await expect(page).toHaveURL(/[?&]group=priority/);
  await expect(page.getByRole('button', { name: 'Urgent, 1 task' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: 'Low, 2 tasks' })).toBeVisible();
  await expect(lane(page, 'Low').getByRole('article', { name: 'Write the notes' })).toBeVisible();

  // Compact cards: every lane fits on the screen, so the mouse reaches from one to the other.
  await page.getByRole('group', { name: 'Card size' }).getByRole('button', { name: 'Compact' }).click();
  const source = lane(page, 'Low').getByRole('article', { name: 'Write the notes' });
  // Another lane and another column: the priority and the column change together.
  const target = lane(page, 'High').getByRole('group', { name: 'High, Completed' });
  await source.scrollIntoViewIfNeeded();
  await expect(source).toBeInViewport();
  await expect(target).toBeInViewport();
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('no box');
  // Held by its empty right-hand side: a drag started on the title link would drag the link.
  await page.mouse.move(from.x + from.width - 16, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width - 26, from.y + from.height / 2 - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(target.getByRole('article', { name: 'Write the notes' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Low, 1 task' })).toBeVisible();

  // Saved by the server: a reload keeps the grouping and shows the card in its new lane.
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/tasks?board=${board._id}&q=notes`);
      const saved = ((await res.json()) as { data: { tasks: { priority: string; status: string }[] } }).data.tasks[0];
      return `${saved?.priority ?? ''} ${saved?.status ?? ''}`;
    })
    .toBe('high done');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue('priority');
  await expect(lane(page, 'High').getByRole('group', { name: 'High, Completed' }).getByRole('article', { name: 'Write the notes' })).toBeVisible();

  // A lane collapses, stays collapsed through a reload (the device remembers it), and expands.
  await page.getByRole('button', { name: 'High, 1 task' }).click();
  await expect(page.getByRole('button', { name: 'High, 1 task' })).toHaveAttribute('aria-expanded', 'false');
  await expect(card(page, 'Write the notes')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'High, 1 task' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('button', { name: 'Urgent, 1 task' })).toHaveAttribute('aria-expanded', 'true');
  await expect(card(page, 'Write the notes')).toHaveCount(0);
  await page.getByRole('button', { name: 'High, 1 task' }).click();
  await expect(card(page, 'Write the notes')).toBeVisible();
  await expectAccessible(page, 'the board grouped by priority at 1280 px');
});

test('the table grouped by assignee, kept by a reload with its collapsed group', async ({ page, user }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { board, other } = await seed(page, user.email);
  await page.goto(`/boards/${board._id}?view=table&group=assignee`);
  const table = page.getByRole('table', { name: 'Tasks' });
  await expect(table.getByRole('button', { name: `${user.email}, 2 tasks` })).toBeVisible();
  await expect(table.getByRole('button', { name: `${other}, 1 task` })).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', '6');
  await page.reload();
  await expect(page).toHaveURL(/[?&]group=assignee/);
  await expect(table.getByRole('button', { name: `${other}, 1 task` })).toBeVisible();
  await table.getByRole('button', { name: `${other}, 1 task` }).click();
  await expect(table.getByRole('link', { name: 'Plan the launch' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'Fix the login' })).toBeVisible();
  // The collapsed group too.
  await page.reload();
  await expect(table.getByRole('button', { name: `${other}, 1 task` })).toHaveAttribute('aria-expanded', 'false');
  await expect(table.getByRole('link', { name: 'Plan the launch' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'Fix the login' })).toBeVisible();
  await expectAccessible(page, 'the table grouped by assignee');
});

test('on a phone the lanes stack over the column shown, and pass axe in both themes', async ({ page, user }) => {
  const { board } = await seed(page, user.email);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/boards/${board._id}?group=priority`);
  await expect(page.getByRole('button', { name: 'Urgent, 1 task' })).toBeVisible();
  await expect(lane(page, 'Low').getByRole('article', { name: 'Write the notes' })).toBeVisible();
  // The Group select is in the Filters panel.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await expect(page.getByRole('dialog', { name: 'Filters' }).getByRole('combobox', { name: 'Group' })).toHaveValue('priority');
  await page.getByRole('button', { name: 'Done' }).click();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'the board grouped by priority at 360 px');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(lane(page, 'Low').getByRole('article', { name: 'Write the notes' })).toBeVisible();
  await expectAccessible(page, 'the board grouped by priority at 360 px, dark');
});
