/**
 * The web app's production build (dist/web) and whether it is current. A build records the
 * SHA-256 of its inputs (every file under web/ and shared/, and package-lock.json) in
 * dist/web/.sources-sha256; the build is fresh while that hash still matches. Content, not file
 * times: a checkout, a copy or a branch switch that leaves the sources as they were built does
 * not force a rebuild, and any change to them does. Hashing the sources takes a few
 * milliseconds; a Vite build takes seconds to minutes on a busy machine.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const INPUTS = ['web', 'shared', 'package-lock.json', 'lingui.config.ts'];
export const webDist = join(repoRoot, 'dist/web');
const stampFile = join(webDist, '.sources-sha256');

function filesUnder(path: string, into: string[]): string[] {
  if (!existsSync(path)) return into;
  if (!statSync(path).isDirectory()) {
    into.push(path);
    return into;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    filesUnder(join(path, entry), into);
  }
  return into;
}

/** SHA-256 over the build's inputs: their paths and contents, in a fixed order. */
export function webSourcesHash(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of filesUnder(join(repoRoot, input), [])) {
      hash.update(relative(repoRoot, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

export type WebBuildState = 'fresh' | 'missing' | 'stale';

export function webBuildState(sourcesHash = webSourcesHash()): WebBuildState {
  if (!existsSync(join(webDist, 'index.html'))) return 'missing';
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  return stamp === sourcesHash ? 'fresh' : 'stale';
}

/** Runs the Vite build and records the hash of the sources it was built from. Throws on failure. */
export function buildWeb(sourcesHash = webSourcesHash()): void {
  const vite = join(repoRoot, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${String(result.status ?? result.signal)})`);
  writeFileSync(stampFile, `${sourcesHash}\n`);
}

/** Builds unless the current build was made from the current sources; returns what it found. */
export function ensureWebBuild(onBuild: (state: Exclude<WebBuildState, 'fresh'>) => void = () => undefined): WebBuildState {
  const sourcesHash = webSourcesHash();
  const state = webBuildState(sourcesHash);
  if (state !== 'fresh') {
    onBuild(state);
    buildWeb(sourcesHash);
  }
  return state;
}
