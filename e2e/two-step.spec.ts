/**
 * Two-step sign-in in the browser: set it up on the account page (the code computed here from
 * the key the page shows, as an authenticator app would), sign out, sign in with the password
 * and a code, then once with a recovery code.
 */
import { Secret, TOTP } from 'otpauth';
import { expect, expectAccessible, test } from './fixtures.ts';
import { loginForm, nav } from './support/pages.ts';

test.describe.configure({ timeout: 120_000 });

/**
 * The app's code for the time step `ahead` steps from now. The server accepts one step either
 * side once per step, so the next step's code signs in right after the current one was used,
 * without waiting for the clock.
 */
const codeFor = (secret: string, ahead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + ahead * 30_000 });

test.use({ signedIn: true });

test('set up on the account page, then sign in with a code, and once with a recovery code', async ({ page, user }) => {
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  await section.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByLabel('Secret key').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page, 'two-step set-up');

  await section.getByLabel('Code from the app').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent()) ?? '';
  await section.getByRole('button', { name: 'I saved them' }).click();
  await expect(section.getByText('Recovery codes left: 10.')).toBeVisible();

  await nav(page).logout.click();
  await page.goto('/login');
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = page.getByLabel('Code from your authenticator app');
  await expect(code).toBeVisible();
  await expectAccessible(page, 'sign-in second step');
  await code.fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();

  await nav(page).logout.click();
  await page.goto('/login');
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Two-step sign-in' }).getByText('Recovery codes left: 9.')).toBeVisible();
});
