/**
 * REQUIRE_2FA in the browser, on a server of its own started with it on: an account without a
 * second step signs in with its password, and every page gives way to the set-up (the API
 * answering 403 SECOND_STEP_REQUIRED meanwhile) until the authenticator app is confirmed and the
 * recovery codes saved; then the board opens.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { startServerProcess, type ServerProcess } from '../scripts/lib/processes.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { insertUser, newUserData, openDb } from './support/db.ts';
import { loginForm, nav } from './support/pages.ts';
import { tmpRoot } from './support/paths.ts';

test.describe.configure({ timeout: 120_000 });

let server: ServerProcess;
let dbPath: string;

test.beforeAll(async () => {
  const dir = join(tmpRoot, `require-2fa-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  dbPath = join(dir, 'taskwise.db');
  server = await startServerProcess({
    baseEnv: process.env,
    logFile: join(dir, 'server.log'),
    env: {
      DATABASE_URL: `file:${dbPath}`,
      FILES_DIR: join(dir, 'files'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      REQUIRE_2FA: 'true',
    },
  });
});

test.afterAll(async () => {
  await server.stop('SIGTERM', 10_000);
});

test('an account without a second step sets one up before anything else, then works', async ({ page }) => {
  const db = openDb(dbPath);
  const user = newUserData();
  try {
    await insertUser(db, user);
  } finally {
    db.close();
  }

  await page.goto(`${server.url}/login`);
  await loginForm(page).email.fill(user.email);
  await loginForm(page).password.fill(user.password);
  await loginForm(page).submit.click();

  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in', level: 1 })).toBeVisible();
  const refused = await page.request.get(`${server.url}/api/tasks`);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('SECOND_STEP_REQUIRED');
  await expectAccessible(page, 'two-step set-up required');

  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  await expect(section.getByText('This server requires two-step sign-in.')).toBeVisible();
  await section.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const secret = (await section.getByLabel('Secret key').textContent())?.trim() ?? '';
  const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  await section.getByLabel('Code from the app').fill(code);
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await section.getByRole('button', { name: 'I saved them' }).click();

  // The gate lifts: the pages and the API answer again.
  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in', level: 1 })).toHaveCount(0);
  await page.goto(`${server.url}/tasks`);
  await expect(page.getByRole('heading', { name: 'Tasks', level: 1 })).toBeVisible();
  expect((await page.request.get(`${server.url}/api/tasks`)).status()).toBe(200);
  await expect(nav(page).logout).toBeVisible();
});
