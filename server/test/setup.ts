import { format } from 'node:util';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

/**
 * Every API test fails on an unexpected console.error (epic-stack's setup-test-env does the
 * same): an error printed and ignored is a bug the assertions did not catch.
 */
let consoleError: MockInstance<typeof console.error> | undefined;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = consoleError?.mock.calls ?? [];
  consoleError?.mockRestore();
  if (calls.length > 0) {
    throw new Error(`Unexpected console.error: ${calls.map((args) => format(...args)).join('\n')}`);
  }
});
