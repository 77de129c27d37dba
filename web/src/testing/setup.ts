import '@testing-library/jest-dom/vitest';
import { i18n } from '@lingui/core';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy* and waitFor wait for their condition; the deadline only guards against a hang. The
// library's default of 1 s failed tests on a busy machine (load 25 on 2 cores) that pass when
// it is idle.
configure({ asyncUtilTimeout: 5000 });

// The tests read the English texts: the source messages, which Lingui compiles as it meets them
// outside a production build (no catalog needs loading).
i18n.loadAndActivate({ locale: 'en', messages: {} });

/*
 * Tests fail on an unexpected console.error (React warnings, act() problems, our own error
 * logging). A test that expects one calls `allowConsoleError()` first.
 * @see https://github.com/epicweb-dev/epic-stack/blob/main/tests/setup/setup-test-env.ts
 */
let consoleErrorAllowed = false;
let consoleErrors: unknown[][] = [];

export function allowConsoleError(): void {
  consoleErrorAllowed = true;
}

beforeEach(() => {
  consoleErrorAllowed = false;
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  // A test that moved the clock (vi.setSystemTime) leaves the next one the real one.
  vi.useRealTimers();
  const errors = consoleErrors;
  const allowed = consoleErrorAllowed;
  vi.restoreAllMocks();
  if (errors.length > 0 && !allowed) {
    throw new Error(`Unexpected console.error:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`);
  }
});
