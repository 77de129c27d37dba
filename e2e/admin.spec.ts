/**
 * The Admin page: an instance admin finds an account and deactivates it while its owner is
 * signed in in another browser; that browser's session ends live (its event stream ends, the
 * app learns the session is gone and shows the login page, with no reload).
 */
import { expect, expectAccessible, newSignedInContext, test } from './fixtures.ts';
import { promoteUser, randomSuffix } from './support/db.ts';
import { loginForm } from './support/pages.ts';

test.describe.configure({ timeout: 120_000 });

test('an admin deactivates a signed-in user; their other browser lands on the login page live', async ({ browser, createUser, db }) => {
  const admin = await createUser({ fullName: `Admin ${randomSuffix()}` });
  promoteUser(db, admin.email);
  const leaver = await createUser({ fullName: `Leaver ${randomSuffix()}` });
  const adminContext = await newSignedInContext(browser, admin);
  const leaverContext = await newSignedInContext(browser, leaver);
  try {
    const leaverPage = await leaverContext.newPage();
    await leaverPage.goto('/tasks');
    await expect(leaverPage.getByText(`Welcome, ${leaver.fullName}`)).toBeVisible();
    // Marks this document: a reload would lose it.
    await leaverPage.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const adminPage = await adminContext.newPage();
    await adminPage.goto('/');
    await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await adminPage.getByLabel('Search accounts').fill(leaver.email);
    const accounts = adminPage.getByRole('region', { name: 'Accounts' });
    await expect(accounts.getByRole('row')).toHaveCount(2);
    await expectAccessible(adminPage, 'admin page');

    await accounts.getByRole('button', { name: `Deactivate ${leaver.fullName}` }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: `Deactivate ${leaver.fullName}?` });
    await dialog.getByRole('button', { name: 'Deactivate account' }).click();
    await expect(dialog).toBeHidden();
    await expect(adminPage.getByRole('status').filter({ hasText: 'The account is deactivated' })).toBeVisible();
    await expect(accounts.getByText('Deactivated', { exact: true })).toBeVisible();
    await expect(adminPage.getByRole('region', { name: 'Audit log' }).getByText(leaver.email)).toBeVisible();

    // The other browser: signed out without anyone touching it.
    await expect(leaverPage).toHaveURL(/\/login/, { timeout: 20_000 });
    expect(await leaverPage.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // And it cannot sign in again.
    await loginForm(leaverPage).email.fill(leaver.email);
    await loginForm(leaverPage).password.fill(leaver.password);
    await loginForm(leaverPage).submit.click();
    await expect(leaverPage.getByText(/This account has been deactivated/)).toBeVisible();
  } finally {
    await adminContext.close();
    await leaverContext.close();
  }
});
