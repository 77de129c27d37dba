/**
 * Where things are, and what machine the numbers come from. Shared by the runner and suites.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const benchRoot = fileURLToPath(new URL('../', import.meta.url));

export { chromeArgs } from '../../scripts/lib/processes.ts';

export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
}

export function cpuModel(): string {
  return cpus()[0]?.model.trim() ?? 'unknown';
}

export function cpuCount(): number {
  return cpus().length;
}

/** First line of `cmd args…`, or null when it cannot run. */
export function commandLine(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim().split('\n')[0] ?? null;
  } catch {
    return null;
  }
}

export function gitRevision(): string {
  const rev = commandLine('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD']) ?? 'unknown';
  const dirty = commandLine('git', ['-C', repoRoot, 'status', '--porcelain']);
  return dirty ? `${rev} (with uncommitted changes)` : rev;
}

/** "1,234" */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Milliseconds with a sensible number of decimals. */
export function ms(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  if (n >= 100) return `${Math.round(n)}`;
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
export const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/** A Markdown table; cells are written as given. */
export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const mark = (met: boolean | null): string => (met === null ? 'not measured' : met ? 'met' : '**not met**');

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `promise`, or a clear failure after `ms` (a stream that never starts would hang the run). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what}: nothing within ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
