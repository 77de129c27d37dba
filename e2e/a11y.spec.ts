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
