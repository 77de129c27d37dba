import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const lingui = fileURLToPath(new URL('../../node_modules/@lingui/cli/dist/lingui.js', import.meta.url));

/** Runs `lingui check <what>` and gives its exit code and what it said. */
function check(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [lingui, 'check', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the catalogs', () => {
  // A message in the source that a catalog lacks shows as its id in a production build: every
  // change of a text comes with `npm run i18n:extract`.
  it('hold exactly the messages of the sources (npm run i18n:extract writes them)', () => {
    const { status, output } = check('sync');
    expect(output).toContain('PASS');
    expect(status).toBe(0);
  }, 120_000);
});
