import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { noImportCycle } from './no-import-cycle.ts';

/** Lints files written to a temporary project with only this rule on. */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  const cwd = mkdtempSync(join(tmpdir(), 'no-import-cycle-'));
  try {
    writeFileSync(join(cwd, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true, noEmit: true, verbatimModuleSyntax: true },
      include: ['*.ts'],
    }));
    writeFileSync(join(cwd, 'package.json'), '{ "type": "module" }');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    const eslint = new ESLint({
      cwd,
      overrideConfigFile: true,
      overrideConfig: [{
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { project: './tsconfig.json', tsconfigRootDir: cwd } },
        plugins: { taskwise: { rules: { 'no-import-cycle': noImportCycle } } },
        rules: { 'taskwise/no-import-cycle': 'error' },
      }],
    });
    const results = await eslint.lintFiles(Object.keys(files));
    return Object.fromEntries(results.map((result) => [result.filePath.slice(cwd.length + 1), result.messages.map((m) => m.message)]));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('taskwise/no-import-cycle', () => {
  let cycle: Record<string, string[]>;
  beforeAll(async () => {
    cycle = await lint({
      'a.ts': "import { b } from './b.ts';\nexport type A = { b: typeof b };\n",
      'b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
      // The edge that closes the cycle is type-only: import-x/no-cycle does not see it.
      'c.ts': "import type { A } from './a.ts';\nexport const c = 1;\nexport type C = A;\n",
      'd.ts': "import { b } from './b.ts';\nexport const d = b;\n",
    });
  }, 60_000);

  it('reports every import of a cycle closed by an `import type`, with the way round', () => {
    expect(cycle['a.ts']).toEqual(['Import cycle (type-only imports count): a.ts → b.ts → c.ts → a.ts.']);
    expect(cycle['b.ts']).toEqual(['Import cycle (type-only imports count): b.ts → c.ts → a.ts → b.ts.']);
    expect(cycle['c.ts']).toEqual(['Import cycle (type-only imports count): c.ts → a.ts → b.ts → c.ts.']);
  });

  it('leaves alone a file that only imports into a cycle', () => {
    expect(cycle['d.ts']).toEqual([]);
  });

  it('counts `export … from` and `typeof import()` as edges', async () => {
    const result = await lint({
      'e.ts': "export { f } from './f.ts';\nexport const e = 1;\n",
      'f.ts': "export const f = 2;\nexport type E = typeof import('./e.ts');\n",
    });
    expect(result['e.ts']).toHaveLength(1);
    expect(result['f.ts']).toHaveLength(1);
  }, 60_000);
});
