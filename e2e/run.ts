/**
 * `npm run test:e2e` (and the browser step of `npm test`): the Playwright suite in Debian's
 * Chromium. Without Chromium it fails under CI=true and is skipped loudly elsewhere, writing a
 * Playwright-shaped report either way so `scripts/test.ts` can count it. Exit code: Playwright's,
 * and 1 when any test was reported flaky (passed only on a retry): a flake is a failure here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWeb } from './support/harness.ts';
import { chromePath, repoRoot } from './support/paths.ts';

interface Stats {
  expected: number;
  unexpected: number;
  flaky: number;
  skipped: number;
  duration?: number;
}

const reportDir = join(repoRoot, 'test-results');
const reportPath = join(reportDir, 'playwright.json');
const config = 'e2e/playwright.config.ts';
const say = (line: string) => process.stdout.write(`${line}\n`);

/** How many tests the suite holds, without running them (no browser needed). */
function countTests(): number {
  const listed = spawnSync('npx', ['playwright', 'test', '-c', config, '--list', '--reporter=json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: '' },
  });
  try {
    interface Suite { specs?: { tests?: unknown[] }[]; suites?: Suite[] }
    const report = JSON.parse(listed.stdout) as { suites?: Suite[] };
    const count = (suites: Suite[] = []): number =>
      suites.reduce((n, s) => n + (s.specs ?? []).reduce((m, spec) => m + (spec.tests?.length ?? 0), 0) + count(s.suites), 0);
    return count(report.suites);
  } catch {
    return 0;
  }
}

if (!existsSync(chromePath)) {
  if (process.env.CI === 'true') {
    process.stderr.write(`\n[e2e] FAILED: Chromium not found at ${chromePath}. CI requires the browser tests: install Debian's chromium or set CHROME_PATH.\n\n`);
    process.exit(1);
  }
  const skipped = countTests();
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(reportPath, JSON.stringify({ config: {}, suites: [], errors: [], stats: { expected: 0, unexpected: 0, flaky: 0, skipped, duration: 0 } }, null, 2));
  const bar = '!'.repeat(78);
  process.stderr.write(
    [
      '',
      bar,
      '!!  BROWSER TESTS SKIPPED: Chromium was not found.',
      `!!  Looked at: ${chromePath} (set CHROME_PATH to use another Chromium).`,
      `!!  ${skipped} browser test(s) did NOT run. Install it with: apt-get install chromium`,
      '!!  (Under CI=true this is a failure, not a skip. Never run "npx playwright install".)',
      bar,
      '',
    ].join('\n') + '\n',
  );
  process.exit(0);
}

const started = performance.now();
try {
  buildWeb();
} catch (error) {
  process.stderr.write(`[e2e] ${String(error)}\n`);
  process.exit(1);
}

const result = spawnSync('npx', ['playwright', 'test', '-c', config, ...process.argv.slice(2)], { cwd: repoRoot, stdio: 'inherit' });
const seconds = ((performance.now() - started) / 1000).toFixed(1);

let stats: Stats | undefined;
if (existsSync(reportPath)) {
  try {
    stats = (JSON.parse(readFileSync(reportPath, 'utf8')) as { stats?: Stats }).stats;
  } catch {
    stats = undefined;
  }
}
if (stats) {
  const ran = stats.expected + stats.unexpected + stats.flaky;
  say(`\n[e2e] ${ran} browser tests run in ${chromePath}: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky, ${stats.skipped} skipped (${seconds}s with the build)`);
} else {
  say(`\n[e2e] Playwright wrote no report at ${reportPath} (exit ${result.status ?? result.signal})`);
}
const flaky = stats?.flaky ?? 0;
if (flaky > 0) say(`[e2e] FAILED: ${flaky} test(s) passed only on a retry; a flaky test is a failing test.`);
process.exit(flaky > 0 ? 1 : (result.status ?? 1));
