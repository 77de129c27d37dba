/**
 * A phone is a first-class screen (360 × 740): nothing scrolls sideways, every navigation item
 * is in reach, the board's heading and two cards show on the first screen, and the board's
 * controls (folded into one row there) still drive the URL, in both themes, without axe findings.
 */
import type { Page } from '@playwright/test';
import { apiCreateTask, expect, expectAccessible, test, type TestUser } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';
import { board } from './support/pages.ts';

test.use({ viewport: { width: 360, height: 740 }, signedIn: true });

const PHONE_HEIGHT = 740;

/** The board's phone controls: one row of a Filters button and a search icon. */
const phoneControls = (page: Page) => {
  const panel = page.getByRole('dialog', { name: 'Filters' });
  return {
    filters: page.getByRole('button', { name: /^Filters/ }),
    panel,
    priority: (name: string) => panel.getByRole('group', { name: 'Filter by priority' }).getByRole('button', { name, exact: true }),
    view: (name: string) => panel.getByRole('group', { name: 'Show tasks' }).getByRole('button', { name, exact: true }),
    sort: panel.getByRole('combobox', { name: 'Sort by' }),
    done: panel.getByRole('button', { name: 'Done' }),
    searchIcon: page.getByRole('main').getByRole('button', { name: 'Search tasks' }),
    search: page.getByRole('searchbox', { name: 'Search tasks' }),
  };
};

/** The account menu of the phone's navigation bar and what it holds. */
const phoneNav = (page: Page) => {
  const bar = page.getByRole('navigation', { name: 'Main' });
  return {
    bar,
    home: bar.getByRole('link', { name: 'Home', exact: true }),
    tasks: bar.getByRole('link', { name: 'Tasks', exact: true }),
    menu: bar.getByRole('button', { name: 'Account menu' }),
    account: bar.getByRole('link', { name: 'Account', exact: true }),
    theme: bar.getByRole('button', { name: 'Dark mode' }),
    logout: bar.getByRole('button', { name: 'Logout', exact: true }),
    welcome: bar.getByText(/^Signed in as /),
  };
};

/** A board of many tasks, each as tall as a card gets: work title, deadline, long address. */
async function seedBoard(page: Page, user: TestUser, count = 12): Promise<string[]> {
  const titles: string[] = [];
  const priorities = ['urgent', 'high', 'normal', 'low'] as const;
  for (let i = 0; i < count; i++) {
    const taskTitle = `Phone ${i} ${randomSuffix()}`;
    titles.push(taskTitle);
    await apiCreateTask(page.request, {
      taskTitle,
      assignee: user.email,
      workTitle: 'Mobile launch',
      priority: priorities[i % priorities.length] ?? 'normal',
      deadline: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
    });
  }
  return titles;
}

test('no page scrolls sideways: the board, the account page and a task page', async ({ page, user }) => {
  const [title = ''] = await seedBoard(page, user, 2);
  await page.goto('/tasks');
  await expect(board(page).cards).toHaveCount(2);
  await expectNoSidewaysScroll(page);

  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expectNoSidewaysScroll(page);

  await page.goto('/tasks');
  await board(page).card(title).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('every navigation item is in reach: Home and Tasks in the bar, the rest in the account menu', async ({ page, user }) => {
  await page.goto('/tasks');
  const nav = phoneNav(page);
  await expect(nav.home).toBeVisible();
  await expect(nav.tasks).toBeVisible();
  await expect(nav.menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.account).toBeHidden();
  await expectNoSidewaysScroll(page);

  // Keyboard only: open, the first item takes focus, Esc closes and focus is back on the button.
  await nav.menu.focus();
  await page.keyboard.press('Enter');
  await expect(nav.menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.welcome).toContainText(user.fullName);
  await expect(nav.account).toBeFocused();
  await expect(nav.theme).toBeVisible();
  await expect(nav.logout).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.keyboard.press('Escape');
  await expect(nav.account).toBeHidden();
  await expect(nav.menu).toBeFocused();

  // A press outside closes it too.
  await nav.menu.click();
  await expect(nav.account).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(nav.account).toBeHidden();

  // The items work from the menu.
  await nav.menu.click();
  await nav.account.click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(nav.account).toBeHidden();
  await nav.menu.click();
  await nav.theme.click();
  await expect(nav.theme).toHaveAttribute('aria-pressed', 'true');
  await nav.logout.click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('the board heading and two whole cards show on the first screen', async ({ page, user }) => {
  await seedBoard(page, user);
  await page.goto('/tasks');
  const heading = page.getByRole('heading', { level: 1 });
  const second = board(page).todo.getByRole('article').nth(1);
  await expect(second).toBeVisible();
  const headingBox = await heading.boundingBox();
  const secondBox = await second.boundingBox();
  expect(headingBox?.y).toBeGreaterThanOrEqual(0);
  expect((secondBox?.y ?? Infinity) + (secondBox?.height ?? 0), 'bottom of the second card').toBeLessThanOrEqual(PHONE_HEIGHT);
  expect(await page.evaluate<number>('window.scrollY')).toBe(0);
});

test('the Filters button opens the filters; priority, view and sort land in the URL', async ({ page, user }) => {
  const titles = await seedBoard(page, user, 4);
  await page.goto('/tasks');
  const c = phoneControls(page);
  await expect(board(page).cards).toHaveCount(4);
  await expect(c.filters).toHaveAccessibleName('Filters');
  await expect(c.filters).toHaveAttribute('aria-expanded', 'false');
  await expect(c.panel).toBeHidden();

  // Opening moves nothing below it.
  const before = await board(page).todo.boundingBox();
  await c.filters.click();
  await expect(c.panel).toBeVisible();
  await expect(c.filters).toHaveAttribute('aria-expanded', 'true');
  await expect(c.priority('All Tasks')).toBeFocused();
  expect(await board(page).todo.boundingBox()).toEqual(before);
  await expectNoSidewaysScroll(page);

  await c.priority('Urgent').click();
  await expect(page).toHaveURL(/[?&]priority=urgent/);
  await c.sort.selectOption('Deadline');
  await expect(page).toHaveURL(/[?&]sort=deadline/);
  await c.view('Created by me').click();
  await expect(page).toHaveURL(/[?&]show=created-by-me/);
  // Urgent tasks are 0, 4, 8, …: of four seeded, only the first.
  await expect(board(page).cards).toHaveCount(1);
  await expect(board(page).card(titles[0] ?? '')).toBeVisible();

  // Esc closes and focus returns to the button, which now counts three choices.
  await page.keyboard.press('Escape');
  await expect(c.panel).toBeHidden();
  await expect(c.filters).toBeFocused();
  await expect(c.filters).toHaveAccessibleName('Filters, 3 active');

  // A reload keeps them (they live in the URL), and Reset brings back the defaults.
  await page.reload();
  await expect(c.filters).toHaveAccessibleName('Filters, 3 active');
  await c.filters.click();
  await expect(c.sort).toHaveValue('deadline');
  await c.panel.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await c.done.click();
  await expect(c.panel).toBeHidden();
  await expect(c.filters).toBeFocused();
  await expect(board(page).cards).toHaveCount(4);
});

test('the search icon opens the search box; typing filters; it stays open while filled', async ({ page, user }) => {
  const titles = await seedBoard(page, user, 3);
  const wanted = titles[1] ?? '';
  await page.goto('/tasks');
  const c = phoneControls(page);
  await expect(board(page).cards).toHaveCount(3);
  await expect(c.search).toHaveCount(0);

  await c.searchIcon.click();
  await expect(c.search).toBeFocused();
  await page.keyboard.type(wanted);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(wanted).replace(/%20/g, '(\\+|%20)')}`));
  await expect(board(page).cards).toHaveCount(1);
  await expect(board(page).card(wanted)).toBeVisible();

  // Filled, it stays open when left, and after a reload.
  await page.getByRole('heading', { level: 1 }).click();
  await expect(c.search).toHaveValue(wanted);
  await page.reload();
  await expect(c.search).toHaveValue(wanted);

  // Esc closes it, clears the search, and focus returns to the icon.
  await c.search.focus();
  await page.keyboard.press('Escape');
  await expect(c.search).toHaveCount(0);
  await expect(c.searchIcon).toBeFocused();
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(board(page).cards).toHaveCount(3);

  // Opened and left empty, it folds back into the icon; "/" opens it from the keyboard.
  await c.searchIcon.click();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(c.search).toHaveCount(0);
  await page.keyboard.press('/');
  await expect(c.search).toBeFocused();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds nothing with the filters or the account menu open (${colorScheme})`, async ({ page, user }) => {
    // Four full axe runs: slow on a busy machine.
    test.slow();
    await page.emulateMedia({ colorScheme });
    await seedBoard(page, user, 2);
    await page.goto('/tasks?priority=high&sort=priority');
    const c = phoneControls(page);
    await expect(c.filters).toHaveAccessibleName('Filters, 2 active');
    await expectAccessible(page, `phone board (${colorScheme})`);
    await c.filters.click();
    await expect(c.panel).toBeVisible();
    await expectAccessible(page, `phone board with the filters open (${colorScheme})`);
    await page.keyboard.press('Escape');
    await c.searchIcon.click();
    await page.keyboard.type('Phone');
    await expectAccessible(page, `phone board with the search open (${colorScheme})`);
    const nav = phoneNav(page);
    await nav.menu.click();
    await expect(nav.account).toBeVisible();
    await expectAccessible(page, `phone account menu (${colorScheme})`);
  });
}
