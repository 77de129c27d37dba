/**
 * A board's workflow columns on the web: the column menu (add, rename, WIP limit, delete with
 * its tasks moved), moving cards by mouse (to another column, and reordered in one) and by
 * keyboard (announced), a move made offline sent once when back online, another person's move
 * showing live, the card size kept on the device, and the phone's column switcher. Touch:
 * columns-touch.spec.ts.
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test, twoPeople } from './fixtures.ts';
import { apiAddMember, apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';

test.use({ signedIn: true });

const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

/** A board of the signed-in person with a "Review" column between its two, and one task on it. */
async function boardWithReview(page: Page, assignee: string) {
  const board = await apiCreateBoard(page.request, `Flow ${randomSuffix()}`);
  const res = await page.request.get(`/api/boards/${board._id}/columns`);
  const { columns } = ((await res.json()) as { data: { columns: { _id: string; name: string }[] } }).data;
  const review = await page.request.post(`/api/boards/${board._id}/columns`, { data: { name: 'Review', category: 'todo', afterId: columns[0]?._id ?? null } });
  expect(review.status()).toBe(201);
  const title = `Ship v2 ${randomSuffix()}`;
  await apiCreateTask(page.request, { taskTitle: title, assignee, boardId: board._id });
  return { board, title };
}

test('the column menu adds, renames, sets a WIP limit and deletes a column, moving its tasks', async ({ page, user }) => {
  const board = await apiCreateBoard(page.request, `Columns ${randomSuffix()}`);
  const title = `Write the plan ${randomSuffix()}`;
  await apiCreateTask(page.request, { taskTitle: title, assignee: user.email, boardId: board._id });
  await page.goto(`/boards/${board._id}`);
  await expect(card(page, title)).toBeVisible();

  // Add "Doing" at the end.
  await page.getByRole('button', { name: 'Add column' }).click();
  const add = page.getByRole('dialog', { name: 'Add column' });
  await add.getByLabel('Name').fill('Doing');
  await add.getByRole('button', { name: 'Add column' }).click();
  await expect(column(page, 'Doing')).toBeVisible();

  // A name the board already has: the server's words, the dialog kept with what was typed.
  await column(page, 'Doing').getByRole('button', { name: 'Column options: Doing' }).click();
  await page.getByRole('button', { name: 'Edit column…' }).click();
  const edit = page.getByRole('dialog', { name: /^Edit column/ });
  await edit.getByLabel('Name').fill('completed');
  await edit.getByRole('button', { name: 'Save column' }).click();
  await expect(edit.getByRole('alert')).toContainText('already has a column with that name');
  await expect(edit.getByLabel('Name')).toHaveValue('completed');

  // Renamed, with a WIP limit of 1 it is over once it holds two tasks.
  await edit.getByLabel('Name').fill('In progress');
  await edit.getByLabel('WIP limit').fill('1');
  await edit.getByRole('button', { name: 'Save column' }).click();
  const doing = column(page, 'In progress');
  await expect(doing).toBeVisible();
  await expect(doing.getByText('0 / 1', { exact: true })).toBeVisible();

  // A new column goes last; "Move left" puts it before Completed.
  await doing.getByRole('button', { name: 'Column options: In progress' }).click();
  await page.getByRole('button', { name: 'Move left' }).click();
  await expect(page.locator('section[data-column-id] h2')).toHaveText(['Tasks To Do', 'In progress', 'Completed']);

  // The To Do column's task moves into it (Alt+→): at its limit, not over.
  await card(page, title).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(doing.getByRole('article', { name: title })).toBeVisible();
  await expect(doing.getByText('1 / 1', { exact: true })).toBeVisible();

  // Deleting it asks where its task goes: only the other "to do" column is offered.
  await doing.getByRole('button', { name: 'Column options: In progress' }).click();
  await page.getByRole('button', { name: 'Delete column…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete column “In progress”?' });
  const moveTo = confirm.getByLabel('Move its tasks to');
  await expect(moveTo.getByRole('option')).toHaveText(['Tasks To Do']);
  await confirm.getByRole('button', { name: 'Delete column' }).click();
  await expect(doing).toHaveCount(0);
  await expect(column(page, 'Tasks To Do').getByRole('article', { name: title })).toBeVisible();
});

test('a card dragged to another column with the mouse stays there after a reload', async ({ page, user }) => {
  const { board, title } = await boardWithReview(page, user.email);
  await page.goto(`/boards/${board._id}`);
  const source = card(page, title);
  const target = column(page, 'Review');
  await expect(source).toBeVisible();
  await expect(target).toBeVisible();

  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('no box');
  await page.mouse.move(from.x + from.width / 2, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + 30, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(target.getByRole('article', { name: title })).toBeVisible();

  await page.reload();
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
  await expect(column(page, 'Tasks To Do').getByRole('article', { name: title })).toHaveCount(0);
});

test('Alt+→ moves the focused card to the next column, and a screen reader hears where', async ({ page, user }) => {
  const { board, title } = await boardWithReview(page, user.email);
  await page.goto(`/boards/${board._id}`);
  await expect(card(page, title)).toBeVisible();
  await expectAccessible(page, 'board with workflow columns');
  await card(page, title).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
  await expect(page.getByTestId('move-announcer')).toHaveText(`Moved ‘${title}’ to Review, position 1 of 1`);
  // Still focused, so the next press goes on from there.
  await expect(card(page, title)).toBeFocused();
});

test('the task page names the card’s column and moves it to another, where the board then shows it', async ({ page, user }) => {
  const { board, title } = await boardWithReview(page, user.email);
  await page.goto(`/boards/${board._id}`);
  await card(page, title).getByRole('link', { name: title }).click();
  const select = page.getByRole('combobox', { name: 'Move to column' });
  await expect(select.locator('option:checked')).toHaveText('Tasks To Do');
  await select.selectOption({ label: 'Review' });
  await page.keyboard.press('Escape');
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
  await page.reload();
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
  await expect(column(page, 'Tasks To Do').getByRole('article', { name: title })).toHaveCount(0);
});

test('Alice’s move shows on Bob’s board without a reload', async ({ browser, createUser }) => {
  const { bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const { board, title } = await boardWithReview(alicePage, bob.email);
    await apiAddMember(alicePage.request, board._id, bob.email, 'member');
    await bobPage.goto(`/boards/${board._id}`);
    await expect(column(bobPage, 'Tasks To Do').getByRole('article', { name: title })).toBeVisible();
    await expect(bobPage.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

    await alicePage.goto(`/boards/${board._id}`);
    await card(alicePage, title).focus();
    await alicePage.keyboard.press('Alt+ArrowRight');
    await expect(column(alicePage, 'Review').getByRole('article', { name: title })).toBeVisible();

    await expect(column(bobPage, 'Review').getByRole('article', { name: title })).toBeVisible();
    await expect(column(bobPage, 'Tasks To Do').getByRole('article', { name: title })).toHaveCount(0);
  } finally {
    await close();
  }
});

test('in All my tasks, a card from a board I am not on names its board and column', async ({ browser, createUser }) => {
  const { bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const { board, title } = await boardWithReview(alicePage, bob.email);
    await bobPage.goto('/tasks');
    // Read out as "Board: …, column: …"; seen as "… · …".
    await expect(card(bobPage, title).getByRole('paragraph')).toHaveText(`Board: ${board.name} · , column: Tasks To Do`);
    // Nothing else of the board reaches Bob: it is not among his boards.
    await expect(bobPage.getByRole('link', { name: board.name })).toHaveCount(0);
  } finally {
    await close();
  }
});

test('the compact card size is remembered by the device after a reload; six compact cards fit at 1280 × 800', async ({ page, user }) => {
  const { board, title } = await boardWithReview(page, user.email);
  for (let i = 0; i < 6; i++) await apiCreateTask(page.request, { taskTitle: `Filler ${i} ${randomSuffix()}`, assignee: user.email, boardId: board._id });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/boards/${board._id}`);
  const sizes = page.getByRole('group', { name: 'Card size' });
  await expect(card(page, title).getByRole('button', { name: 'Mark complete' })).toBeVisible();
  await sizes.getByRole('button', { name: 'Compact' }).click();
  await expect(card(page, title).getByRole('button', { name: 'Mark complete' })).toHaveCount(0);

  await page.reload();
  await expect(sizes.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card(page, title)).toBeVisible();
  await expect(card(page, title).getByRole('button', { name: 'Mark complete' })).toHaveCount(0);
  const todo = column(page, 'Tasks To Do').getByRole('article');
  await expect(todo).toHaveCount(7);
  for (let i = 0; i < 6; i++) await expect(todo.nth(i)).toBeInViewport({ ratio: 1 });
  await expectAccessible(page, 'compact cards');
  // Enter on the card opens its task page.
  await card(page, title).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tasks\//);
});

test('a phone shows one column at a time, chosen in the switcher above it', async ({ browser, user }) => {
  const context = await newSignedInContext(browser, user);
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    const { board, title } = await boardWithReview(page, user.email);
    const second = `Second card ${randomSuffix()}`;
    await apiCreateTask(page.request, { taskTitle: second, assignee: user.email, boardId: board._id });
    await page.goto(`/boards/${board._id}`);
    const switcher = page.getByRole('group', { name: 'Column shown' });
    await expect(switcher.getByRole('button')).toHaveText([/^Tasks To Do/, /^Review/, /^Completed/]);
    await expect(switcher.getByRole('button', { name: /^Tasks To Do/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(column(page, 'Tasks To Do')).toBeInViewport();
    await expect(column(page, 'Review')).toHaveCount(0);
    // The board's name, the column's name and two whole cards on the first screen.
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
    await expect(card(page, title)).toBeInViewport({ ratio: 1 });
    await expect(card(page, second)).toBeInViewport({ ratio: 1 });

    await switcher.getByRole('button', { name: /^Review/ }).click();
    await expect(column(page, 'Review')).toBeVisible();
    await expect(column(page, 'Tasks To Do')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('a card moved while offline shows there at once and reaches the server once, when the network returns', async ({ page, context, user }) => {
  const { board, title } = await boardWithReview(page, user.email);
  const listed = async () => {
    const res = await page.request.get(`/api/tasks?board=${board._id}`);
    const { tasks } = ((await res.json()) as { data: { tasks: { taskTitle: string; columnId: string; version: number }[] } }).data;
    return tasks.find((t) => t.taskTitle === title);
  };
  const res = await page.request.get(`/api/boards/${board._id}/columns`);
  const { columns } = ((await res.json()) as { data: { columns: { _id: string; name: string }[] } }).data;
  const reviewId = columns.find((c) => c.name === 'Review')?._id;
  const before = await listed();
  expect(before).toBeDefined();

  await page.goto(`/boards/${board._id}`);
  await expect(card(page, title)).toBeVisible();
  await context.setOffline(true);
  await card(page, title).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
  await expect(page.getByTestId('move-announcer')).toHaveText(`Moved ‘${title}’ to Review, position 1 of 1`);
  // Waiting on the device, not on the server (the test's own requests do not go through the page).
  expect((await listed())?.columnId).toBe(before?.columnId);

  await context.setOffline(false);
  await expect.poll(async () => (await listed())?.columnId, { timeout: 15_000 }).toBe(reviewId);
  // Sent once: one version more.
  expect((await listed())?.version).toBe((before?.version ?? 0) + 1);
  await page.reload();
  await expect(column(page, 'Review').getByRole('article', { name: title })).toBeVisible();
});

test('in Manual order, a card dragged above another in its column stays there after a reload', async ({ page, user }) => {
  const { board, title: lower } = await boardWithReview(page, user.email);
  // Created last, so at the top: `lower` is under it.
  const upper = `Write notes ${randomSuffix()}`;
  await apiCreateTask(page.request, { taskTitle: upper, assignee: user.email, boardId: board._id });
  // Both detailed cards in view, so the pointer can reach them.
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.goto(`/boards/${board._id}`);
  const todo = column(page, 'Tasks To Do');
  await expect(todo.getByRole('article')).toHaveText([new RegExp(upper), new RegExp(lower)]);

  const from = await card(page, lower).boundingBox();
  const to = await card(page, upper).boundingBox();
  if (!from || !to) throw new Error('no box');
  await page.mouse.move(from.x + from.width / 2, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 5, from.y + 10, { steps: 5 });
  // The upper half of the card above: it lands before it.
  await page.mouse.move(to.x + to.width / 2, to.y + 8, { steps: 10 });
  await page.mouse.up();
  await expect(todo.getByRole('article')).toHaveText([new RegExp(lower), new RegExp(upper)]);

  await page.reload();
  await expect(column(page, 'Tasks To Do').getByRole('article')).toHaveText([new RegExp(lower), new RegExp(upper)]);
});
