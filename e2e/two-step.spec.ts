/**
 * Two-step sign-in in the browser: set it up on the account page (the code computed here from
 * the key the page shows, as an authenticator app would), sign out, sign in with the password
 * and a code, then once with a recovery code, and make new recovery codes.
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
  await expect(nav(page).login).toBeVisible();
  await page.goto('/login');
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = page.getByLabel('Code from your authenticator app');
  await expect(code).toBeVisible();
  await expectAccessible(page, 'sign-in second step');
  // The step this code is of: a code is accepted only for a later step than the last one used.
  const usedStep = Math.floor(Date.now() / 30_000) + 1;
  await code.fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();

  await nav(page).logout.click();
  await expect(nav(page).login).toBeVisible();
  await page.goto('/login');
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();
  await page.goto('/account');
  const again = page.getByRole('region', { name: 'Two-step sign-in' });
  await expect(again.getByText('Recovery codes left: 9.')).toBeVisible();

  // New recovery codes replace the nine left: the password and the app's next code.
  await again.getByRole('button', { name: 'New recovery codes…' }).click();
  const renew = again.getByRole('form', { name: 'Make new recovery codes' });
  await renew.getByLabel('Password').fill(user.password);
  // The app's next code is of a later step than the one used to sign in once the clock has
  // reached that step (at most one step, 30 s, from the sign-in).
  await expect.poll(() => Math.floor(Date.now() / 30_000), { timeout: 35_000 }).toBeGreaterThanOrEqual(usedStep);
  await renew.getByLabel('Code from the app').fill(codeFor(secret, 1));
  await renew.getByRole('button', { name: 'Make new codes' }).click();
  const fresh = again.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(fresh).toHaveCount(10);
  expect(await fresh.allTextContents()).not.toContain(recoveryCode);
  await again.getByRole('button', { name: 'I saved them' }).click();
  await expect(again.getByText('Recovery codes left: 10.')).toBeVisible();
});
