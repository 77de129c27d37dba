import { fileURLToPath } from 'node:url';

/** Absolute paths the harness, the specs and the scripts agree on. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const tmpRoot = fileURLToPath(new URL('../.tmp/', import.meta.url));
export const distIndex = fileURLToPath(new URL('../../dist/web/index.html', import.meta.url));

/** Debian's Chromium unless CHROME_PATH says otherwise; never a downloaded browser. */
export const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

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
