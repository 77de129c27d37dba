import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { logDestination } from '../log-destination.ts';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-log-'));
  dirs.push(dir);
  return join(dir, 'out.log');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the JSON log destination', () => {
  it('writes the lines of one turn together, in order, once the turn is done', async () => {
    const file = tempFile();
    const fd = openSync(file, 'w');
    try {
      const destination = logDestination(fd);
      expect(logDestination(fd)).toBe(destination);
      destination.write('{"n":1}\n');
      destination.write('{"n":2}\n');
      destination.write('{"n":3}\n');
      expect(readFileSync(file, 'utf8')).toBe('');
      await nextTurn();
      expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
      destination.write('{"n":4}\n');
      destination.flushSync();
      expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
    } finally {
      closeSync(fd);
    }
  });

  it('writes what was logged when the process exits in the same turn', () => {
    const module = fileURLToPath(new URL('../log-destination.ts', import.meta.url));
    const script = `import { logDestination } from ${JSON.stringify(module)};
      const log = logDestination(1);
      for (let i = 0; i < 1000; i++) log.write('line ' + i + ' ' + 'é'.repeat(50) + '\\n');
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(3);
    const lines = child.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1000);
    expect(lines[0]).toBe(`line 0 ${'é'.repeat(50)}`);
    expect(lines[999]).toBe(`line 999 ${'é'.repeat(50)}`);
  });
});
