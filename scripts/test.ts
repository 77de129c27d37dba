/**
 * `npm test`: everything CI runs, in order — lint, type-check, Vitest (shared, web, and the API
 * against SQLite and, when TEST_DATABASE_URL is set, PostgreSQL), then the browser tests.
 * Every step runs even when an earlier one fails, so one run shows every problem; the exit code
 * is non-zero if any step failed. The last line is the plain "N passed, N failed" total.
 * Under CI=true it refuses to start without TEST_DATABASE_URL: CI runs the API tests on both
 * databases, never on SQLite alone (`.ci/run` installs and starts PostgreSQL).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
interface Step {
  name: string;
  command: [string, ...string[]];
  /** Reads the step's test counts from its JSON report, if it writes one. */
  counts?: () => Counts | undefined;
}

if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  process.stderr.write(
    'npm test: CI=true but TEST_DATABASE_URL is not set. CI runs the API tests against SQLite and\n' +
      'PostgreSQL, never SQLite alone; start PostgreSQL (.ci/run does) and set\n' +
      'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.\n',
  );
  process.exit(1);
}

const reportDir = 'test-results';
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const steps: Step[] = [
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  {
    name: 'vitest',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportDir}/vitest.json`],
    counts: () => {
      const report = readJson(`${reportDir}/vitest.json`) as
        | { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }
        | undefined;
      return report && {
        passed: report.numPassedTests,
        failed: report.numFailedTests,
        skipped: report.numPendingTests + report.numTodoTests,
      };
    },
  },
];
if (existsSync('e2e/run.ts')) {
  steps.push({
    name: 'browser',
    command: ['node', 'e2e/run.ts'],
    counts: () => {
      const report = readJson(`${reportDir}/playwright.json`) as
        | { stats: { expected: number; unexpected: number; flaky: number; skipped: number } }
        | undefined;
      return report && {
        // A test that passed only on a retry is counted as failed: it hides a bug.
        passed: report.stats.expected,
        failed: report.stats.unexpected + report.stats.flaky,
        skipped: report.stats.skipped,
      };
    },
  });
}

const say = (line: string) => process.stdout.write(`${line}\n`);

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const failedSteps: string[] = [];
for (const step of steps) {
  say(`\n=== ${step.name}: ${step.command.join(' ')}`);
  const started = performance.now();
  const [program, ...args] = step.command;
  const result = spawnSync(program, args, { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const counts = step.counts?.();
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  const ok = result.status === 0;
  if (!ok) failedSteps.push(step.name);
  const countText = counts ? ` (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped)` : '';
  say(`=== ${step.name}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`} in ${seconds}s${countText}`);
}

if (failedSteps.length > 0) say(`\nFailed steps: ${failedSteps.join(', ')}`);
// A step that failed without failing a test (lint, type-check) still counts as a failure.
const failed = total.failed > 0 ? total.failed : failedSteps.length;
// Plain closing line, read by CI.
say(`\ntotal: ${total.passed} passed, ${failed} failed, ${total.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
