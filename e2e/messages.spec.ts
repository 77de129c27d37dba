/**
 * The error messages of shared/messages.ts, shown in accessible in-page alerts: failures the real
 * server rarely produces are injected per test with `page.route`, everything else is real.
 */
import type { Page } from '@playwright/test';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../shared/messages.ts';
import { apiCreateTask, expect, test } from './fixtures.ts';
import { newUserData, randomSuffix } from './support/db.ts';
import { alertWith, board, cardActions, nav, signUpForm } from './support/pages.ts';

const fail = (status: number, message?: string) => ({
  status,
  contentType: 'application/json',
  body: message === undefined ? '' : JSON.stringify({ status: status >= 500 ? 'error' : 'fail', code: status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR', message }),
});

async function fillSignUpDetails(page: Page) {
  const user = newUserData();
  const form = signUpForm(page);
  await page.goto('/sign-up');
  await form.fullName.fill(user.fullName);
  await form.email.fill(user.email);
  return form;
}

test.describe('signed out', () => {
  test('a refused code request shows "Error: " and the server message', async ({ page }) => {
    await page.route('**/api/otps', (route) => route.fulfill(fail(429, SERVER_MESSAGES.tooManyRequests)));
    const form = await fillSignUpDetails(page);
    await form.sendOtp.click();
    await expect(alertWith(page, `${CLIENT_MESSAGES.otpErrorPrefix}${SERVER_MESSAGES.tooManyRequests}`)).toBeVisible();
    await expect(form.otp).toHaveCount(0);
  });

  test('a code request that never reaches the server shows "Failed to send OTP. Please try again."', async ({ page }) => {
    await page.route('**/api/otps', (route) => route.abort('connectionrefused'));
    const form = await fillSignUpDetails(page);
    await form.sendOtp.click();
    await expect(alertWith(page, CLIENT_MESSAGES.otpNetworkFailure)).toBeVisible();
  });
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('a board that cannot load says so and recovers with "Try again"', async ({ page, user }) => {
    const taskTitle = `Comes back ${randomSuffix()}`;
    await apiCreateTask(page.request, { taskTitle, assignee: user.email });
    await page.route('**/api/tasks?**', (route) => route.fulfill(fail(500, SERVER_MESSAGES.internalError)));
    await page.goto('/tasks');
    const b = board(page);
    // The app retries a 5xx twice (with back-off) before it shows the error.
    await expect(alertWith(b.todo, SERVER_MESSAGES.internalError)).toBeVisible({ timeout: 15_000 });
    await page.unroute('**/api/tasks?**');
    await b.todo.getByRole('button', { name: 'Try again' }).click();
    await expect(b.card(taskTitle)).toBeVisible();
  });

  test('a failed delete without a message shows "Error deleting task" and keeps the card', async ({ page, user }) => {
    const taskTitle = `Undeletable ${randomSuffix()}`;
    await apiCreateTask(page.request, { taskTitle, assignee: user.email });
    await page.route('**/api/tasks/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill(fail(500)) : route.fallback()));
    await page.goto('/tasks');
    const b = board(page);
    await cardActions(b.card(taskTitle)).del.click();
    await page.getByRole('alertdialog').getByRole('button', { name: /^Delete/ }).click();
    await expect(alertWith(page, CLIENT_MESSAGES.deleteFailedDefault)).toBeVisible();
    await expect(b.card(taskTitle)).toBeVisible();
  });

  test('a failed logout shows "Error in Logout! " and the message, and stays signed in', async ({ page, user }) => {
    await page.route('**/api/users/logout', (route) => route.fulfill(fail(500, SERVER_MESSAGES.internalError)));
    await page.goto('/');
    await nav(page).logout.click();
    await expect(alertWith(page, `${CLIENT_MESSAGES.logoutPrefix}${SERVER_MESSAGES.internalError}`)).toBeVisible();
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
  });
});
