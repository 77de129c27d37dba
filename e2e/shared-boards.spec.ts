/** Shared boards in the browser: the switcher, settings, members seeing changes live, viewers, moves. */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, newSignedInContext, test, type TestUser } from './fixtures.ts';
import { apiAddMember, apiCreateBoard } from './support/boards-api.ts';
import { randomSuffix } from './support/db.ts';
import { board, cardActions } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

const switcher = (page: Page) => page.getByRole('navigation', { name: 'Boards' });
const live = (page: Page) => expect(page.getByTestId('live-activity')).toHaveAttribute('data-stream', 'open');

test('an admin makes a board and adds a member, who sees the board and its new card appear live', async ({ browser, createUser }) => {
  const alice = await createUser({ fullName: `Alice ${randomSuffix()}` });
  const bob = await createUser({ fullName: `Bob ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  try {
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();
    await bobPage.goto('/tasks');
    await live(bobPage);

    // Alice: "New board" in the sidebar opens the new board.
    const name = `Launch ${randomSuffix()}`;
    await alicePage.goto('/tasks');
    await switcher(alicePage).getByRole('button', { name: 'New board' }).click();
    const dialog = alicePage.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await expect(alicePage.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(switcher(alicePage).getByRole('link', { name: new RegExp(name) })).toHaveAttribute('aria-current', 'page');
    await expectAccessible(alicePage, 'a new board');

    // Alice adds Bob as a member in the board's settings.
    await alicePage.getByRole('link', { name: 'Board settings' }).click();
    await expect(alicePage.getByRole('heading', { level: 1, name: `${name}: settings` })).toBeVisible();
    const add = alicePage.getByRole('form', { name: 'Add a member' });
    await add.getByLabel('E-mail address').fill(bob.email);
    await add.getByLabel('Role').selectOption('member');
    await add.getByRole('button', { name: 'Add' }).click();
    await expect(alicePage.getByText(bob.email, { exact: true })).toBeVisible();
    await expectAccessible(alicePage, 'board settings');

    // Bob: the board appears in his switcher without a reload.
    const bobLink = switcher(bobPage).getByRole('link', { name: new RegExp(name) });
    await expect(bobLink).toBeVisible();
    await bobLink.click();
    await expect(bobPage.getByRole('heading', { level: 1, name })).toBeVisible();
    await live(bobPage);

    // Alice creates a task on the board (the form's board is the one on screen); Bob sees its card arrive.
    await alicePage.getByRole('link', { name: `Back to ${name}` }).click();
    const a = board(alicePage);
    await a.createTask.click();
    await expect(a.dialog.getByLabel('Board')).toHaveValue(/.+/);
    const title = `Shared card ${randomSuffix()}`;
    await a.form.taskTitle.fill(title);
    await a.form.assignee.fill(alice.email);
    await a.form.submit.click();
    await expect(a.card(title)).toBeVisible();
    await expect(board(bobPage).card(title)).toBeVisible();
    // On "All my tasks" the card names its board.
    await bobPage.getByRole('link', { name: 'All my tasks' }).click();
    await expect(board(bobPage).card(title)).toContainText(name);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test('a viewer sees the board read-only, except the tasks assigned to them', async ({ browser, createUser }) => {
  const alice = await createUser();
  const vera = await createUser({ fullName: `Vera ${randomSuffix()}` });
  const aliceContext = await newSignedInContext(browser, alice);
  const veraContext = await newSignedInContext(browser, vera);
  try {
    const alicePage = await aliceContext.newPage();
    const veraPage = await veraContext.newPage();
    const shared = await apiCreateBoard(alicePage.request, `Watched ${randomSuffix()}`);
    await apiAddMember(alicePage.request, shared._id, vera.email, 'viewer');
    const theirs = `Alice's ${randomSuffix()}`;
    const hers = `For Vera ${randomSuffix()}`;
    await apiCreateTask(alicePage.request, { taskTitle: theirs, assignee: alice.email, boardId: shared._id });
    await apiCreateTask(alicePage.request, { taskTitle: hers, assignee: vera.email, boardId: shared._id });

    await veraPage.goto(`/boards/${shared._id}`);
    const v = board(veraPage);
    await expect(v.card(theirs)).toBeVisible();
    await expect(v.card(theirs).getByRole('button')).toHaveCount(0);
    await expect(cardActions(v.card(hers)).complete).toBeVisible();
    await expect(v.createTask).toHaveCount(0);
    await expect(veraPage.getByRole('link', { name: 'About this board' })).toBeVisible();
    await expectAccessible(veraPage, "a viewer's board");
  } finally {
    await aliceContext.close();
    await veraContext.close();
  }
});

test('a removed member loses the board live and is taken to all their tasks', async ({ browser, createUser }) => {
  const alice = await createUser();
  const bob = await createUser();
  const aliceContext = await newSignedInContext(browser, alice);
  const bobContext = await newSignedInContext(browser, bob);
  try {
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();
    const shared = await apiCreateBoard(alicePage.request, `Leaving ${randomSuffix()}`);
    await apiAddMember(alicePage.request, shared._id, bob.email, 'member');

    await bobPage.goto(`/boards/${shared._id}`);
    await expect(bobPage.getByRole('heading', { level: 1, name: shared.name })).toBeVisible();
    await live(bobPage);

    await alicePage.goto(`/boards/${shared._id}/settings`);
    await alicePage.getByRole('button', { name: `Remove ${bob.email}` }).click();
    await expect(alicePage.getByText(bob.email, { exact: true })).toHaveCount(0);

    await expect(bobPage).toHaveURL(/\/tasks$/);
    await expect(bobPage.getByText(`You are no longer on ${shared.name}.`)).toBeVisible();
    await expect(switcher(bobPage).getByRole('link', { name: new RegExp(shared.name) })).toHaveCount(0);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test.describe('moving a task', () => {
  test.use({ signedIn: true });

  test('from the task page to another board', async ({ page, user }) => {
    const target = await apiCreateBoard(page.request, `Target ${randomSuffix()}`);
    const title = `Move me ${randomSuffix()}`;
    const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
    await page.goto(`/tasks/${id}`);
    const select = page.getByRole('combobox', { name: 'Move to board' });
    await expect(select).toBeVisible();
    await select.selectOption({ label: target.name });
    // The move is in the task's activity, by board name.
    await expect(page.getByRole('region', { name: 'Activity' }).getByText(target.name)).toBeVisible();
    await page.goto(`/boards/${target._id}`);
    await expect(board(page).card(title)).toBeVisible();
  });
});

/**
 * A shared board, the phone's switcher, "All my tasks" and the settings in both themes, on a
 * phone and a desktop, each checked with axe; with WEB_SHOTS_DIR set, also saved as screenshots
 * for a person to look at.
 */
const shoot = async (page: Page, name: string, fullPage = false) => {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
};

test.describe('boards in both themes, phone and desktop', () => {
  test.use({ signedIn: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [label, size] of [
      ['phone', { width: 360, height: 740 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      test(`${colorScheme} ${label}`, async ({ page, user, createUser }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(size);
        const other: TestUser = await createUser({ fullName: `Grace Hopper` });
        const shared = await apiCreateBoard(page.request, 'Website launch');
        await apiAddMember(page.request, shared._id, other.email, 'member');
        await apiAddMember(page.request, shared._id, `invited-${randomSuffix()}@example.com`, 'viewer');
        for (const taskTitle of ['Write the launch post', 'Check the pricing page', 'Book the photographer']) {
          await apiCreateTask(page.request, { taskTitle, assignee: other.email, boardId: shared._id });
        }
        await apiCreateTask(page.request, { taskTitle: 'Renew passport', assignee: user.email });
        await page.goto(`/boards/${shared._id}`);
        await expect(board(page).card('Book the photographer')).toBeVisible();
        await shoot(page, `board-${label}-${colorScheme}`);
        await expectAccessible(page, `board ${colorScheme} ${label}`);
        if (label === 'phone') {
          await page.getByRole('button', { name: 'Switch board' }).click();
          await shoot(page, `switcher-${label}-${colorScheme}`);
          await page.keyboard.press('Escape');
        }
        await page.goto('/tasks');
        await expect(board(page).card('Renew passport')).toBeVisible();
        await shoot(page, `all-tasks-${label}-${colorScheme}`);
        await page.goto(`/boards/${shared._id}/settings`);
        await expect(page.getByRole('form', { name: 'Add a member' })).toBeVisible();
        await shoot(page, `settings-${label}-${colorScheme}`, true);
        await expectAccessible(page, `settings ${colorScheme} ${label}`);
      });
    }
  }
});
