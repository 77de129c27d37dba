/** Routes: every guard and redirect, the navigation bar, the landing page, not-found. */
import { CLIENT_MESSAGES } from '../shared/messages.ts';
import { expect, test } from './fixtures.ts';
import { loginForm, nav } from './support/pages.ts';

test.describe('signed out', () => {
  test('/ redirects to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === '/login');
    await expect(loginForm(page).email).toBeVisible();
  });

  test('/tasks redirects to /login and signing in lands back on /tasks', async ({ page, user }) => {
    await page.goto('/tasks');
    await expect(page).toHaveURL((url) => url.pathname === '/login');
    const form = loginForm(page);
    await form.email.fill(user.email);
    await form.password.fill(user.password);
    await form.submit.click();
    await expect(page).toHaveURL((url) => url.pathname === '/tasks');
    await expect(page.getByRole('button', { name: 'Create Task', exact: true })).toBeVisible();
  });

  test('/signup redirects to /sign-up', async ({ page }) => {
    await page.goto('/signup');
    await expect(page).toHaveURL((url) => url.pathname === '/sign-up');
    await expect(page.getByLabel('Full name', { exact: true })).toBeVisible();
  });

  test('the navigation bar offers Login and Sign Up only', async ({ page }) => {
    await page.goto('/login');
    const bar = nav(page);
    await expect(bar.login).toBeVisible();
    await expect(bar.signUp).toBeVisible();
    await expect(bar.logout).toHaveCount(0);
    await expect(bar.tasks).toHaveCount(0);
    await bar.signUp.click();
    await expect(page).toHaveURL((url) => url.pathname === '/sign-up');
    await nav(page).login.click();
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });

  test('an unknown path shows "Page not found" with a link home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: CLIENT_MESSAGES.pageNotFound })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: /home/i }).click();
    // Home is signed-in only, so the link ends on the login page.
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('/login and /sign-up redirect to /', async ({ page }) => {
    for (const path of ['/login', '/sign-up', '/signup']) {
      await page.goto(path);
      await expect(page, `${path} should redirect home`).toHaveURL((url) => url.pathname === '/');
    }
  });

  test('the navigation bar welcomes the user and offers Home, Tasks and Logout', async ({ page, user }) => {
    await page.goto('/');
    const bar = nav(page);
    await expect(bar.welcome).toHaveText(`Welcome, ${user.fullName}`);
    await expect(bar.login).toHaveCount(0);
    await expect(bar.signUp).toHaveCount(0);
    await bar.tasks.click();
    await expect(page).toHaveURL((url) => url.pathname === '/tasks');
    await bar.home.click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(bar.logout).toBeVisible();
  });

  test('the landing page has the hero, six features, calls to action, footer year and 50 particles', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const feature of [/smart automation/i, /real-time analytics/i, /goal tracking/i, /team sync/i, /custom workflows/i, /integration hub/i]) {
      await expect(page.getByRole('heading', { name: feature })).toBeVisible();
    }
    const main = page.getByRole('main');
    await expect(main.locator('a[href="/tasks"]').first()).toBeVisible();
    await expect(main.locator('a[href="/sign-up"]').first()).toBeVisible();
    await expect(page.getByText(`© ${new Date().getFullYear()} Taskwise`)).toBeVisible();
    // Exactly 50 children in one aria-hidden container.
    await expect(page.locator('[aria-hidden="true"]:has(> :nth-child(50)):not(:has(> :nth-child(51)))')).toHaveCount(1);
  });

  test('an unknown path shows "Page not found" and its link goes home', async ({ page }) => {
    await page.goto('/definitely-missing');
    await expect(page.getByRole('heading', { name: CLIENT_MESSAGES.pageNotFound })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: /home/i }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });
});
