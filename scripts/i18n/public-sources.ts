import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The source files whose messages go into the web app's public catalog: the ones the signed-out
 * screens (/login, /sign-up, a page not found) can show, found by following imports from the
 * app's entry the way the bundle loads them.
 *
 * Every import is followed (static and `import()`), except into the signed-in part of the app,
 * which comes with its own catalog:
 * - a chunk loaded through `withAppCatalog(() => import('…'))` (web/src/app/i18n.ts), and what it alone imports;
 * - the signed-in features, web/src/features/* other than auth.
 *
 * A file in neither list is in the app catalog, which /login never downloads. So /login's catalog
 * holds what it can show, not every text of the app's frame and of shared/ (docs/i18n.md).
 */
const ENTRY = 'web/src/main.tsx';
const ALIASES: Record<string, string> = { '#web/': 'web/src/', '#shared/': 'shared/' };
const SOURCE = /\.(ts|tsx)$/;
// `import … from '…'`, `export … from '…'`, `import '…'`, `import('…')`; the group before the
// specifier says whether it sits inside a withAppCatalog( … ) call.
const IMPORT = /(withAppCatalog\(\s*\(\)\s*=>\s*)?(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const SIGNED_IN_FEATURE = /^web\/src\/features\/(?!auth\/)/;

function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  let path: string | null = null;
  for (const [alias, target] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) path = join(root, target, specifier.slice(alias.length));
  if (path === null && specifier.startsWith('.')) path = resolve(dirname(fromFile), specifier);
  if (path === null || !SOURCE.test(path) || !existsSync(path)) return null;
  return path;
}

/** Repository-relative paths of the files the signed-out screens load, sorted. */
export function publicSourceFiles(root: string): string[] {
  const seen = new Set<string>();
  const queue = [join(root, ENTRY)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const path = relative(root, file);
    if (seen.has(path) || SIGNED_IN_FEATURE.test(path)) continue;
    seen.add(path);
    for (const [, appChunk, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (appChunk !== undefined || specifier === undefined) continue;
      const target = resolveImport(root, file, specifier);
      if (target !== null) queue.push(target);
    }
  }
  return [...seen].sort();
}
