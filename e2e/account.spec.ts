/**
 * Accounts and mail choices in the browser: password reset from the sign-in page, the account
 * page (name, password, notifications, sign out everywhere, delete), and the unsubscribe page a
 * mail's link opens. axe checks each new page.
 */
import { ACCOUNT_MESSAGES } from '../shared/account-messages.ts';
import { apiCreateTask, expect, expectAccessible, mailCount, mailsTo, readLatestCode, test } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';

test.describe.configure({ timeout: 120_000 });

/** Waits for a mail to `email` whose text holds `pattern`; returns the first match group. */
async function linkInMail(email: string, pattern: RegExp): Promise<string> {
  const found = () => mailsTo(email).reverse().map((mail) => pattern.exec(mail.text)?.[1]).find((group) => group !== undefined);
  await expect.poll(found, { message: `a mail to ${email} matches ${String(pattern)}`, timeout: 15_000 }).toBeDefined();
  return found()!;
}

test('a forgotten password is reset from the sign-in page with a mailed code', async ({ page, user }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expectAccessible(page, 'reset password, step 1');

  const before = mailCount(user.email);
  await page.getByRole('form', { name: 'Reset password: your e-mail' }).getByLabel('E-mail').fill(user.email);
  await page.getByRole('button', { name: 'Send reset code' }).click();
  const code = await readLatestCode(user.email, { after: before });
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
  await expectAccessible(page, 'reset password, step 2');

  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByLabel('New password', { exact: true }).fill('a fresh new password');
  await page.getByLabel('Confirm new password').fill('a fresh new password');
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(ACCOUNT_MESSAGES.passwordReset)).toBeVisible();
  await page.getByLabel('Password').fill('a fresh new password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Welcome, ${user.fullName}`)).toBeVisible();
});

test.describe('account page', () => {
  test.use({ signedIn: true });

  test('changes the name and the notification settings, each confirmed', async ({ page, user }) => {
    await page.goto('/tasks');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Due soon: Mail' })).toBeChecked();
    await expectAccessible(page, 'account page');

    const name = `Renamed ${randomSuffix()}`;
    await page.getByLabel('Full name').fill(name);
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText(ACCOUNT_MESSAGES.profileSaved)).toBeVisible();
    await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();

    await page.getByRole('switch', { name: 'Due soon: Mail' }).uncheck();
    await expect(page.getByText('Saved: Due soon and Overdue: Mail off.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Due soon: Mail' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Assigned to me: Mail' })).toBeChecked();
    expect(user.email).toContain('@');
  });

  test('changes the password: a wrong current one is refused, the right one confirmed', async ({ page, user }) => {
    await page.goto('/account');
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password', { exact: true }).fill('another fine password');
    await page.getByLabel('Confirm new password').fill('another fine password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText(ACCOUNT_MESSAGES.wrongPassword)).toBeVisible();

    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText(ACCOUNT_MESSAGES.passwordChanged)).toBeVisible();
  });

  test('signs out everywhere after asking', async ({ page }) => {
    await page.goto('/account');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'sign out everywhere dialog');
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(ACCOUNT_MESSAGES.loggedOutEverywhere)).toBeVisible();
  });

  test('deletes the account after asking for the password', async ({ page, user }) => {
    await page.goto('/account');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('wrong password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByText(ACCOUNT_MESSAGES.wrongPassword)).toBeVisible();
    await expectAccessible(page, 'delete account dialog with error');
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(ACCOUNT_MESSAGES.accountDeleted)).toBeVisible();
  });
});

test('the unsubscribe link of an assignment mail turns those mails off and says so', async ({ browser, page, createUser, user }) => {
  const assigner = await createUser();
  const context = await browser.newContext();
  try {
    const login = await context.request.post('/api/users/login', { data: { email: assigner.email, password: assigner.password } });
    expect(login.status()).toBe(200);
    await apiCreateTask(context.request, { taskTitle: `Unsubscribe me ${randomSuffix()}`, assignee: user.email });
  } finally {
    await context.close();
  }
  const path = await linkInMail(user.email, /https?:\/\/[^/\s]+(\/unsubscribe\?token=[\w.-]+)/);

  await page.goto(path);
  await expect(page.getByText(ACCOUNT_MESSAGES.unsubscribed.assigned)).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await expectAccessible(page, 'unsubscribe page');
});
