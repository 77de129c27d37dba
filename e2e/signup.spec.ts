/**
 * The one spec that walks the real e-mail code flow: sign-up sends a mail through SMTP to the
 * catcher started by global set-up, and the test reads the code out of the caught mail.
 */
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../shared/messages.ts';
import { expect, mailCount, readLatestCode, test } from './fixtures.ts';
import { newUserData } from './support/db.ts';
import { alertWith, loginForm, nav, signUpForm, statusWith } from './support/pages.ts';

test('sign-up with the e-mailed code: wrong code, password mismatch, then success and sign-in', async ({ page }) => {
  const user = newUserData();
  const form = signUpForm(page);

  await page.goto('/sign-up');
  await form.fullName.fill(user.fullName);
  await form.email.fill(user.email);
  await form.sendOtp.click();

  // Step 2: e-mail and full name read-only, the code field set up for one-time codes.
  await expect(form.otp).toBeVisible();
  await expect(form.otp).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(form.otp).toHaveAttribute('inputmode', 'numeric');
  await expect(form.email).toHaveValue(user.email);
  await expect(form.email).not.toBeEditable();
  await expect(form.fullName).toHaveValue(user.fullName);
  await expect(form.fullName).not.toBeEditable();
  // The cooldown: a second code cannot be asked for at once.
  await expect(form.resend).toBeDisabled();

  const code = await readLatestCode(user.email);
  expect(code).toMatch(/^\d{6}$/);
  const wrong = code === '000000' ? '111111' : '000000';

  // A wrong code: the server's message, still on step 2.
  await form.otp.fill(wrong);
  await form.password.fill(user.password);
  await form.confirm.fill(user.password);
  await form.create.click();
  await expect(alertWith(page, SERVER_MESSAGES.invalidCode)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/sign-up');

  // Password and confirmation differ: the message, and nothing is sent.
  const registerCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/users/register')) registerCalls.push(req.url());
  });
  await form.otp.fill(code);
  await form.confirm.fill(`${user.password}-typo`);
  await form.create.click();
  await expect(alertWith(page, CLIENT_MESSAGES.passwordMismatch)).toBeVisible();
  expect(registerCalls).toEqual([]);

  // Success: to /login with the notice, and the new account signs in.
  await form.confirm.fill(user.password);
  await form.create.click();
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  await expect(statusWith(page, CLIENT_MESSAGES.accountCreated)).toBeVisible();
  expect(registerCalls).toHaveLength(1);

  const login = loginForm(page);
  await login.email.fill(user.email);
  await login.password.fill(user.password);
  await login.submit.click();
  await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);
  // Exactly one mail was sent for this address.
  expect(mailCount(user.email)).toBe(1);
});

test('sign-up step 2 can go back to change the e-mail', async ({ page }) => {
  const user = newUserData();
  const form = signUpForm(page);
  await page.goto('/sign-up');
  await form.fullName.fill(user.fullName);
  await form.email.fill(user.email);
  await form.sendOtp.click();
  await expect(form.otp).toBeVisible();
  await form.changeEmail.click();
  await expect(form.sendOtp).toBeVisible();
  await expect(form.email).toBeEditable();
  await expect(form.email).toHaveValue(user.email);
});

test('sign-up step 1 requires a full name and a valid e-mail', async ({ page }) => {
  const form = signUpForm(page);
  await page.goto('/sign-up');
  await expect(form.fullName).toHaveAttribute('required', '');
  await expect(form.email).toHaveAttribute('type', 'email');
  await expect(form.email).toHaveAttribute('required', '');
  // The link to the sign-in page, not a provider's "Sign in with …" (the browser tests' server has one).
  await expect(page.getByRole('main').getByRole('link', { name: /^(sign in|log ?in)$/i })).toHaveAttribute('href', '/login');
});
