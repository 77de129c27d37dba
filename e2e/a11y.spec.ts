/**
 * WCAG 2.2 AA, checked by axe in every page and state: zero serious or critical violations
 * (tags wcag2a, wcag2aa, wcag21aa, wcag22aa).
 */
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../shared/messages.ts';
import { apiCreateTask, expect, expectAccessible, test } from './fixtures.ts';
import { newUserData, randomSuffix } from './support/db.ts';
import { alertWith, board, cardActions, countText, loginForm, signUpForm } from './support/pages.ts';

// axe walks the whole DOM once per state; on a busy two-core machine that takes seconds each.
test.describe.configure({ timeout: 120_000 });

test.describe('signed out', () => {
  test('login page, empty and with an error', async ({ page }) => {
    await page.goto('/login');
    await expect(loginForm(page).email).toBeVisible();
    await expectAccessible(page, 'login');
    await loginForm(page).email.fill('nobody-a11y@example.test');
    await loginForm(page).password.fill('wrong-password');
    await loginForm(page).submit.click();
    await expect(alertWith(page, SERVER_MESSAGES.incorrectCredentials)).toBeVisible();
    await expectAccessible(page, 'login with error');
  });

  test('sign-up steps 1 and 2, and the mismatch error', async ({ page }) => {
    const user = newUserData();
    const form = signUpForm(page);
    await page.goto('/sign-up');
    await expect(form.fullName).toBeVisible();
    await expectAccessible(page, 'sign-up step 1');
    await form.fullName.fill(user.fullName);
    await form.email.fill(user.email);
    await form.sendOtp.click();
    await expect(form.otp).toBeVisible();
    await expectAccessible(page, 'sign-up step 2');
    await form.otp.fill('123456');
    await form.password.fill(user.password);
    await form.confirm.fill(`${user.password}x`);
    await form.create.click();
    await expect(alertWith(page, CLIENT_MESSAGES.passwordMismatch)).toBeVisible();
    await expectAccessible(page, 'sign-up step 2 with error');
  });

  test('not-found page', async ({ page }) => {
    await page.goto('/nothing-here');
    await expect(page.getByRole('heading', { name: CLIENT_MESSAGES.pageNotFound })).toBeVisible();
    await expectAccessible(page, 'not found');
  });
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('landing page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'landing');
  });

  test('board: empty, and the create dialog open, with and without an error', async ({ page }) => {
    await page.goto('/tasks');
    const b = board(page);
    await expect(b.createTask).toBeVisible();
    await expect(b.todoCount).toHaveText(countText(0));
    await expectAccessible(page, 'empty board');

    await b.createTask.click();
    await expect(b.dialog).toBeVisible();
    await expectAccessible(page, 'create dialog open');
    await b.form.taskTitle.fill('   ');
    await b.form.assignee.fill('someone@example.test');
    await b.form.submit.click();
    await expect(alertWith(b.dialog, CLIENT_MESSAGES.taskRequired)).toBeVisible();
    await expectAccessible(page, 'create dialog with error');
  });

  test('board: full (every priority, overdue, done), editing a card, confirming a delete', async ({ page, user, seedTask }) => {
    const priorities = ['urgent', 'high', 'normal', 'low'] as const;
    for (const priority of priorities) {
      await apiCreateTask(page.request, { taskTitle: `A11y ${priority} ${randomSuffix()}`, assignee: user.email, priority, workTitle: 'Audit', deadline: new Date(Date.now() + 86_400_000).toISOString() });
    }
    seedTask(user, { taskTitle: `A11y overdue ${randomSuffix()}`, assignee: user.email, priority: 'high', deadline: new Date(Date.now() - 86_400_000) });
    seedTask(user, { taskTitle: `A11y done ${randomSuffix()}`, assignee: user.email, status: 'done' });
    await page.goto('/tasks');
    const b = board(page);
    await expect(b.cards).toHaveCount(6);
    await expectAccessible(page, 'full board');

    const first = b.cards.first();
    await cardActions(first).edit.click();
    await expect(cardActions(first).save).toBeVisible();
    await expectAccessible(page, 'board editing a card');
    await cardActions(first).cancel.click();

    await cardActions(first).del.click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectAccessible(page, 'delete confirmation');
  });

  test('board at 360 px wide', async ({ page, user }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await apiCreateTask(page.request, { taskTitle: `Narrow ${randomSuffix()}`, assignee: user.email, priority: 'urgent' });
    await page.goto('/tasks');
    await expect(board(page).cards).toHaveCount(1);
    await expectAccessible(page, 'board at 360 px');
  });
});

/** Every page again in the dark theme, and the new board features and task page in both. */
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme });
    });

    if (colorScheme === 'dark') {
      test('signed-out pages (dark)', async ({ page }) => {
        await page.goto('/login');
        await expect(loginForm(page).email).toBeVisible();
        await expectAccessible(page, 'login (dark)');
        await page.goto('/sign-up');
        await expect(signUpForm(page).fullName).toBeVisible();
        await expectAccessible(page, 'sign-up (dark)');
        await page.goto('/nothing-here');
        await expect(page.getByRole('heading', { name: CLIENT_MESSAGES.pageNotFound })).toBeVisible();
        await expectAccessible(page, 'not found (dark)');
        await page.goto('/reset-password');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page, 'reset password (dark)');
        await page.goto('/unsubscribe?token=not-a-real-token');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page, 'unsubscribe with a bad link (dark)');
      });

      test.describe('signed in', () => {
        test.use({ signedIn: true });

        test('account page (dark)', async ({ page }) => {
          await page.goto('/account');
          await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
          await expect(page.getByRole('switch').first()).toBeVisible();
          await expectAccessible(page, 'account (dark)');
        });
      });
    }

    test.describe('signed in', () => {
      test.use({ signedIn: true });

      test(`landing, board with every kind of card, search and the shortcuts help (${colorScheme})`, async ({ page, user, seedTask }) => {
        await page.goto('/');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page, `landing (${colorScheme})`);

        for (const priority of ['urgent', 'high', 'normal', 'low'] as const) {
          await apiCreateTask(page.request, { taskTitle: `Theme ${priority} ${randomSuffix()}`, assignee: user.email, priority, workTitle: 'Audit', deadline: new Date(Date.now() + 3_600_000).toISOString() });
        }
        seedTask(user, { taskTitle: `Theme overdue ${randomSuffix()}`, assignee: user.email, deadline: new Date(Date.now() - 86_400_000) });
        seedTask(user, { taskTitle: `Theme done ${randomSuffix()}`, assignee: user.email, status: 'done' });
        await page.goto('/tasks');
        const b = board(page);
        await expect(b.cards).toHaveCount(6);
        await expect(page.getByTestId('overdue-count')).toHaveText('1 overdue');
        await expectAccessible(page, `full board (${colorScheme})`);

        await page.getByRole('searchbox', { name: 'Search tasks' }).fill('zzz-nothing');
        await expect(page.getByText('No tasks match “zzz-nothing”')).toBeVisible();
        await expectAccessible(page, `board with an empty search (${colorScheme})`);

        await page.getByRole('heading', { level: 1, name: 'Tasks' }).click();
        await page.keyboard.press('Shift+?');
        await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
        await expectAccessible(page, `shortcuts help (${colorScheme})`);
      });

      test(`task page: panel and narrow page, with description, comments and activity (${colorScheme})`, async ({ page, user }) => {
        const title = `Theme task ${randomSuffix()}`;
        const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email, priority: 'urgent', workTitle: 'Audit' });
        await page.request.patch(`/api/tasks/${id}`, { data: { description: 'Read https://example.com/a first.\nThen the rest.' } });
        const res = await page.request.post(`/api/tasks/${id}/comments`, { data: { body: 'A comment with https://example.com/b' } });
        expect(res.status()).toBe(201);

        await page.goto(`/tasks/${id}`);
        await expect(page.getByRole('dialog').getByRole('heading', { name: title })).toBeVisible();
        await expect(page.getByRole('region', { name: 'Activity' }).getByRole('listitem').first()).toBeVisible();
        await expectAccessible(page, `task panel (${colorScheme})`);

        await page.getByRole('button', { name: 'Edit description' }).click();
        await expect(page.getByRole('textbox', { name: 'Description' })).toBeFocused();
        await expectAccessible(page, `task panel editing the description (${colorScheme})`);

        await page.setViewportSize({ width: 360, height: 740 });
        await page.goto(`/tasks/${id}`);
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
        await expect(page.getByRole('region', { name: /^Comments/ }).getByRole('article')).toHaveCount(1);
        await expectAccessible(page, `task page at 360 px (${colorScheme})`);

        await page.goto('/tasks/no-such-task');
        await expect(page.getByRole('heading', { name: 'Task not found' })).toBeVisible();
        await expectAccessible(page, `task not found (${colorScheme})`);
      });
    });
  });
}
