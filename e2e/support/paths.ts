import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute paths the harness, the specs and the scripts agree on. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const tmpRoot = fileURLToPath(new URL('../.tmp/', import.meta.url));
export const distIndex = fileURLToPath(new URL('../../dist/web/index.html', import.meta.url));

/**
 * Debian's Chromium, the whole browser (CHROME_PATH when set; never a downloaded browser). The
 * few tests that need what only the whole browser has use it: the long press of its touch
 * gesture recognition, the notifications a service worker shows.
 */
export const fullChromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * The browser every other test drives: Debian's `chromium-headless-shell` when installed, else
 * the whole browser. The shell is the same Chromium (one Debian source package, one version)
 * without the desktop browser around its renderer, Playwright's own default for headless tests:
 * the browser tests took 8.7 min in it against about 35 in the whole browser on two cores. The
 * benchmarks measure the whole browser (bench/run.ts), as people run it.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
export const chromePath = process.env.CHROME_PATH ?? (existsSync(headlessShell) ? headlessShell : fullChromePath);

export { chromeArgs } from '../../scripts/lib/processes.ts';

/** Environment variables through which global set-up tells the workers where things are. */
export const ENV = {
  baseURL: 'E2E_BASE_URL',
  mailDir: 'E2E_MAIL_DIR',
  dbPath: 'E2E_DB_PATH',
} as const;

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through "node e2e/run.ts" (global set-up sets it).`);
  return value;
}
