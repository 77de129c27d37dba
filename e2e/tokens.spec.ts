/**
 * Personal API tokens in the browser: made on the account page, the secret shown once (and
 * copied), used by a client of its own with `Authorization: Bearer` (no cookie), revoked after a
 * confirmation, then refused. axe checks each state; both themes at 360 px and on a desktop.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectNoSidewaysScroll, THEMES_AND_SIZES } from './support/layout.ts';
import { statusWith } from './support/pages.ts';

const SHOTS = process.env.WEB_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const tokensSection = (page: Page) => page.getByRole('region', { name: 'API tokens' });

/** Creates a token with the form; returns the secret shown. */
async function createInPage(page: Page, name: string, access: 'Read only' | 'Read and write', expires: string): Promise<string> {
  const section = tokensSection(page);
  await section.getByRole('textbox', { name: /^Name/ }).fill(name);
  await section.getByRole('combobox', { name: 'Access' }).selectOption({ label: access });
  await section.getByRole('combobox', { name: 'Expires' }).selectOption({ label: expires });
  await section.getByRole('button', { name: 'Create token' }).click();
  const secretBox = section.getByRole('textbox', { name: `New API token “${name}”` });
  await expect(secretBox).toBeFocused();
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^tw_[A-Za-z0-9_-]{43}$/);
  return secret;
}

test.describe('API tokens', () => {
  test.use({ signedIn: true });
  test.describe.configure({ timeout: 120_000 });

  test('create one, copy it (shown once), call the API with it, revoke it: then it is refused', async ({ page, context, user, playwright, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/account');
    const section = tokensSection(page);
    await expect(section.getByText('No tokens yet.')).toBeVisible();
    await expectAccessible(page, 'account page, no tokens');

    const secret = await createInPage(page, 'E2E script', 'Read and write', 'In 30 days');
    await expect(section.getByText('Copy it now: you will not see it again.')).toBeVisible();
    await section.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(statusWith(section, 'Copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(page, 'account page, new token shown');

    // A client of its own: no cookie, no Origin, only the token.
    const api = await playwright.request.newContext({ baseURL: baseURL ?? '' });
    try {
      const bearer = { authorization: `Bearer ${secret}` };
      const me = await api.get('/api/users/me', { headers: bearer });
      expect(me.status()).toBe(200);
      expect(((await me.json()) as { data: { user: { email: string } } }).data.user.email).toBe(user.email);
      const created = await api.post('/api/tasks', { headers: bearer, data: { taskTitle: 'Made with a token', assignee: user.email } });
      expect(created.status(), await created.text()).toBe(201);
      expect((await api.post('/api/tokens', { headers: bearer, data: { name: 'another', access: 'read' } })).status()).toBe(403);

      await section.getByRole('button', { name: 'I have copied it' }).click();
      await expect(section.getByRole('button', { name: 'Create token' })).toBeFocused();
      await page.reload();
      // Never shown again: not on the page, only its name, access and last use.
      await expect(page.locator('body')).not.toContainText(secret);
      const item = section.getByRole('listitem').filter({ hasText: 'E2E script' });
      await expect(item).toContainText('Read and write');
      await expect(item).not.toContainText(/Last used\s*Never/);

      await item.getByRole('button', { name: 'Revoke “E2E script”' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Revoke “E2E script”?' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, 'revoke confirmation');
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await expect(section.getByText('No tokens yet.')).toBeVisible();

      const refused = await api.get('/api/users/me', { headers: bearer });
      expect(refused.status()).toBe(401);
    } finally {
      await api.dispose();
    }
  });

  for (const { colorScheme, label, size } of THEMES_AND_SIZES) {
    test(`the section in ${colorScheme} on a ${label}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      // Two older tokens, one of them used, made through the API as this browser's session.
      for (const body of [
        { name: 'Nightly backup to the NAS in the basement cupboard', access: 'read' },
        { name: 'Deploy', access: 'write', expiresInDays: 365 },
      ]) {
        const res = await page.request.post('/api/tokens', { data: body });
        expect(res.status()).toBe(201);
      }
      await page.goto('/account');
      const section = tokensSection(page);
      await expect(section.getByRole('listitem')).toHaveCount(2);
      await createInPage(page, 'Phone shortcut', 'Read only', 'Never');
      await expect(section.getByRole('listitem')).toHaveCount(3);
      await section.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, `tokens, ${colorScheme} ${label}`);
      await section.screenshot({ path: SHOTS === undefined ? undefined : `${SHOTS}/tokens-${colorScheme}-${label}.png` });
      await section.getByRole('button', { name: 'Revoke “Deploy”' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectAccessible(page, `revoke dialog, ${colorScheme} ${label}`);
      await shoot(page, `tokens-revoke-${colorScheme}-${label}`);
    });
  }
});
