/**
 * Single sign-on in the browser: "Sign in with Test ID" on the sign-in page goes to a real
 * OpenID provider (`oidc-provider`, started by the harness on 127.0.0.1), whose login page says
 * who signs in; the provider sends the browser back and the board opens, signed in. The account
 * page then lists the linked provider, and refuses to unlink it: it is the account's only way
 * to sign in.
 */
import { randomBytes } from 'node:crypto';
import { expect, expectAccessible, test } from './fixtures.ts';
import { nav } from './support/pages.ts';

test.describe.configure({ timeout: 120_000 });

test('signs in with the provider, making the account, then lists it on the account page', async ({ page }) => {
  const suffix = randomBytes(4).toString('hex');
  const email = `sso-${suffix}@example.test`;
  const name = `Sam Single ${suffix}`;

  await page.goto('/login');
  const providerLink = page.getByRole('link', { name: 'Sign in with Test ID' });
  await expect(providerLink).toBeVisible();
  await expectAccessible(page, 'sign-in page with a provider');
  await providerLink.click();

  // The provider's own sign-in page.
  await expect(page.getByRole('heading', { name: 'Test provider sign-in' })).toBeVisible();
  await page.getByLabel('Subject').fill(`subject-${suffix}`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail verified').check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();

  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Sign-in providers' });
  await expect(section.getByRole('list', { name: 'Linked sign-in providers' })).toContainText(`Test ID (${email})`);
  await section.getByRole('button', { name: 'Unlink Test ID' }).click();
  await expect(section.getByRole('alert')).toContainText('This is the last way to sign in to your account.');
  await expectAccessible(page, 'account page with a linked provider');

  // Signed out, the provider signs in to the same account again.
  await nav(page).logout.click();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await page.getByLabel('Subject').fill(`subject-${suffix}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();
});

test('shows why a provider sign-in was refused, on the sign-in page', async ({ page, user }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  // The provider has not verified the address of an existing account: no sign-in.
  await page.getByLabel('Subject').fill(`subject-${randomBytes(4).toString('hex')}`);
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\?error=oidc_unverified$/);
  await expect(page.getByRole('alert')).toContainText('The sign-in provider has not verified your e-mail address');
});
