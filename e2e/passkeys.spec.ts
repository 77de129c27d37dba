/**
 * Passkeys in the browser, with Chromium's virtual authenticator (a platform authenticator that
 * keeps discoverable credentials and verifies the user): add one on the account page, sign out,
 * sign in with it without typing an e-mail, remove it; then it signs in no more.
 *
 * WebAuthn refuses an IP address as the relying party ID, and the suite's server is at
 * http://127.0.0.1:PORT: this spec starts a server of its own whose APP_ORIGIN is
 * http://localhost:PORT (a secure context, like https).
 */
import type { CDPSession, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { insertUser, newUserData, openDb } from './support/db.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { loginForm, nav } from './support/pages.ts';

// It starts a server of its own on a machine whose cores other runs share.
test.describe.configure({ timeout: 180_000 });

let started: Harness | undefined;
test.beforeAll(async () => {
  // One per worker (Playwright numbers them in TEST_WORKER_INDEX): each harness owns its directory.
  started = await startHarness(`e2e-passkeys-${process.env.TEST_WORKER_INDEX ?? '0'}`, 'localhost');
});
test.afterAll(async () => {
  await started?.stop();
});

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

test('add a passkey on the account page, sign in with it without an e-mail, remove it', async ({ page }) => {
  const harness = started;
  if (harness === undefined) throw new Error('the localhost server did not start');
  expect(new URL(harness.baseURL).hostname).toBe('localhost');
  const user = newUserData();
  const db = openDb(harness.dbPath);
  try {
    await insertUser(db, user);
  } finally {
    db.close();
  }
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const url = (path: string) => new URL(path, harness.baseURL).toString();

  await page.goto(url('/login'));
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(nav(page).welcome).toBeVisible();

  await page.goto(url('/account'));
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  // No name typed: the browser and system name it.
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('Passkey added.', { exact: false })).toBeVisible();
  const rows = section.getByRole('list').getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(/Chrome on \w+/);
  await expect(rows.first()).toContainText('Never');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  expect(credentials[0]?.rpId).toBe('localhost');
  await expectAccessible(page, 'account page with a passkey');

  await section.getByRole('button', { name: /^Rename “Chrome on/ }).click();
  await section.getByLabel('New name').fill('Test laptop');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(rows.first()).toContainText('Test laptop');

  await nav(page).logout.click();
  await expect(nav(page).login).toBeVisible();
  await page.goto(url('/login'));
  await expect(loginForm(page).email).toHaveValue('');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(nav(page).welcome).toHaveText(`Welcome, ${user.fullName}`);

  await page.goto(url('/account'));
  await expect(rows.first()).not.toContainText('Never');
  await section.getByRole('button', { name: 'Remove “Test laptop”' }).click();
  await page.getByRole('alertdialog', { name: 'Remove “Test laptop”?' }).getByRole('button', { name: 'Remove passkey' }).click();
  await expect(section.getByText('No passkeys yet.')).toBeVisible();

  // The device still holds it, but the server no longer knows it.
  await nav(page).logout.click();
  await expect(nav(page).login).toBeVisible();
  await page.goto(url('/login'));
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('That passkey could not sign you in.', { exact: false })).toBeVisible();
  await expect(nav(page).login).toBeVisible();
});
