/** Session and login: sign in, failures, logout, expired sessions. */
import { LOGGED_IN_FLAG } from '../shared/constants.ts';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../shared/messages.ts';
import { expect, test } from './fixtures.ts';
import { readCopy } from './support/device-copy.ts';
import { alertWith, loginForm, nav, statusWith } from './support/pages.ts';

const flag = `localStorage.getItem(${JSON.stringify(LOGGED_IN_FLAG)})`;

test.describe('login', () => {
  test('a wrong password shows the server message and stays signed out', async ({ page, user }) => {
    await page.goto('/login');
    const form = loginForm(page);
    await form.email.fill(user.email);
    await form.password.fill('not-the-password');
    await form.submit.click();
    await expect(alertWith(page, SERVER_MESSAGES.incorrectCredentials)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/login');
    expect(await page.evaluate(flag)).toBeNull();
    // The input is kept, so the user can correct it.
    await expect(form.email).toHaveValue(user.email);
  });

  test('an unknown e-mail gets the same message', async ({ page }) => {
    await page.goto('/login');
    const form = loginForm(page);
    await form.email.fill('nobody-here@example.test');
    await form.password.fill('whatever-password');
    await form.submit.click();
    await expect(alertWith(page, SERVER_MESSAGES.incorrectCredentials)).toBeVisible();
  });

  test('the form shows a busy state while signing in, then welcomes the user on /', async ({ page, user }) => {
    await page.goto('/login');
    const form = loginForm(page);
    await form.email.fill(user.email);
    await form.password.fill(user.password);
    // Hold the answer until the busy state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/users/login', async (route) => {
      await held;
      await route.continue();
    });
    await form.submit.click();
    await expect(form.submit).toBeDisabled();
    release();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
    expect(await page.evaluate(flag)).not.toBeNull();
  });

  test('the e-mail and password fields are required and typed', async ({ page }) => {
    await page.goto('/login');
    const form = loginForm(page);
    await expect(form.email).toHaveAttribute('type', 'email');
    await expect(form.email).toHaveAttribute('required', '');
    await expect(form.password).toHaveAttribute('type', 'password');
    await expect(form.password).toHaveAttribute('required', '');
    await expect(form.signUpLink).toHaveAttribute('href', '/sign-up');
  });
});

test.describe('signed in', () => {
  test.use({ signedIn: true });

  test('logout removes the flag, shows the signed-out navigation and guards /tasks again', async ({ page, user }) => {
    await page.goto('/tasks');
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
    await nav(page).logout.click();
    await expect(nav(page).login).toBeVisible();
    await expect(nav(page).logout).toHaveCount(0);
    expect(await page.evaluate(flag)).toBeNull();
    await page.goto('/tasks');
    await expect(page).toHaveURL((url) => url.pathname === '/login');
    // The session is gone on the server too.
    expect((await page.request.get('/api/users/me')).status()).toBe(401);
  });

  test('with the flag set the app starts as "Guest" until /users/me answers', async ({ page, user }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/users/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(nav(page).welcome).toHaveText('Welcome, Guest');
    release();
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
  });

  test('a removed session cookie with the flag still set signs out with "session expired"', async ({ page, context }) => {
    await context.clearCookies();
    await page.goto('/tasks');
    await expect(statusWith(page, CLIENT_MESSAGES.sessionExpired)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/login');
    await expect(nav(page).login).toBeVisible();
    expect(await page.evaluate(flag)).toBeNull();
  });

  test('a session that ends while the board is open signs out with "session expired"', async ({ page, context, user }) => {
    await page.goto('/tasks');
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
    await expect(page.getByRole('region', { name: /^Tasks To Do/ }).getByText(/^\d+ tasks?$/)).toBeVisible();
    await context.clearCookies();
    // Any call now answers 401; the board asks for nothing by itself, so the first call is the
    // Urgent filter's list, never shown before.
    await page.getByRole('button', { name: 'Urgent', exact: true }).click();
    await expect(statusWith(page, CLIENT_MESSAGES.sessionExpired)).toBeVisible();
    await expect(nav(page).login).toBeVisible();
  });

  test('a server error of /users/me shows "Error fetching user info" and signs out', async ({ page }) => {
    await page.route('**/api/users/me', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: 'error', code: 'INTERNAL_ERROR', message: SERVER_MESSAGES.internalError }) }),
    );
    await page.goto('/');
    await expect(alertWith(page, `${CLIENT_MESSAGES.userInfoPrefix}${CLIENT_MESSAGES.userInfoFailure}`)).toBeVisible();
    await expect(nav(page).login).toBeVisible();
  });

  test('a network failure of /users/me signs out only when this device holds no copy of the person', async ({ page }) => {
    await page.route('**/api/users/me', (route) => route.abort('internetdisconnected'));
    await page.goto('/');
    await expect(alertWith(page, `${CLIENT_MESSAGES.userInfoPrefix}${CLIENT_MESSAGES.userInfoFailure}`)).toBeVisible();
    await expect(nav(page).login).toBeVisible();
  });

  test('with a copy of the person on the device, a network failure of /users/me keeps them signed in', async ({ page, user }) => {
    await page.goto('/tasks');
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
    // The copy records whose it is once /users/me has answered.
    await expect.poll(() => readCopy(page)).toContain(user.email);
    await page.route('**/api/users/me', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
    await expect(page.getByText(CLIENT_MESSAGES.userInfoFailure)).toHaveCount(0);
  });
});
