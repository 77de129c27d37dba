import { defineConfig, devices } from '@playwright/test';
import { join } from 'node:path';
import { chromeArgs, chromePath, ENV, repoRoot } from './support/paths.ts';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser). Run through `node e2e/run.ts`,
 * which builds the web app first. Global set-up starts the app server and an SMTP catcher.
 */
// Web code imported into a spec (queue-property.spec.ts) is written with Lingui's macros, which the
// web app's build compiles: Playwright's own transform runs the same Babel plugin on web/src.
process.env.PW_TEST_SOURCE_TRANSFORM = join(repoRoot, 'e2e/support/lingui-macros.cjs');
process.env.PW_TEST_SOURCE_TRANSFORM_SCOPE = join(repoRoot, 'web/src');

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  forbidOnly: true,
  fullyParallel: true,
  // Two cores shared with other work: two workers at most.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Never retried: a test that fails once has found a bug (in the app or in the test) to fix.
  retries: 0,
  // A hang guard, not a speed check: the machine's two cores are shared with other builds and test
  // runs. A two-browser test that takes 18–22 s here on busy cores once passed 60 s in a CI run
  // whose every test ran two to three times slower; the step timeline below says where time went.
  timeout: 90_000,
  // Also a hang guard: an assertion waits this long for its condition. A signed-in page opened
  // beside the heaviest specs (twenty uploads, a resumable 39 s upload) showed its first content
  // 3.5-14.3 s after the navigation began (16 runs, load average 10-14 on two cores): the
  // renderer's first render and the task page's take seconds of a starved core. At 10 s a
  // first-visibility check failed once in CI ("a second person sees a new file at once").
  expect: { timeout: 20_000 },
  reporter: [['list'], ['./support/step-timeline.ts'], ['json', { outputFile: join(repoRoot, 'test-results/playwright.json') }]],
  // Not test-results/ itself: Playwright empties its output directory, and other reports live there.
  outputDir: join(repoRoot, 'test-results/playwright-artifacts'),
  use: {
    ...devices['Desktop Chrome'],
    baseURL: process.env[ENV.baseURL],
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-first-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromePath, args: chromeArgs },
  },
});
