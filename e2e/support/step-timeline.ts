/**
 * A Playwright reporter that prints, for every test that failed or timed out, the steps it took
 * with when each began and how long it ran. A CI log keeps only its tail and not the trace, so a
 * timeout there ("Test timeout of 60000ms exceeded") would otherwise not say which step spent the
 * time: a slow machine (every step a little slower) and one step that hung read differently here.
 */
import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/** Steps shorter than this are left out unless they failed: the point is where the time went. */
const SHOWN_FROM_MS = 250;
const MAX_LINES = 80;

function lines(steps: readonly TestStep[], start: number, depth: number, out: string[]): void {
  for (const step of steps) {
    if (out.length >= MAX_LINES) return;
    if (step.duration >= SHOWN_FROM_MS || step.error !== undefined) {
      const at = ((step.startTime.getTime() - start) / 1000).toFixed(1).padStart(6);
      const took = (step.duration / 1000).toFixed(1).padStart(5);
      const mark = step.error === undefined ? '' : '  ✘';
      out.push(`${at}s +${took}s ${'  '.repeat(depth)}${step.title.slice(0, 140)}${mark}`);
    }
    lines(step.steps, start, depth + 1, out);
  }
}

export default class StepTimeline implements Reporter {
  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const out: string[] = [];
    lines(result.steps, result.startTime.getTime(), 0, out);
    const head = `[steps] ${test.titlePath().filter(Boolean).join(' › ')}: ${result.status} after ${(result.duration / 1000).toFixed(1)}s`;
    process.stdout.write(`\n${head}\n${out.map((line) => `[steps] ${line}`).join('\n')}\n\n`);
  }
}
