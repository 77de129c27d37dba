/**
 * A page's latency as the board suites measure it (single requests one after the other on one
 * keep-alive connection, after warm-up requests), and the two targets every such page has: p50 at
 * the largest table under a bound, and flat as the table grows.
 */
import type { TargetResult } from '../suite.ts';
import { int, ms } from './env.ts';
import { timeSequential } from './load.ts';

export interface Point {
  p50: number;
  p99: number;
}

/** p50 and p99 of GET `path` (ms): `warmup` requests, then `count` or `seconds`, whichever ends first. */
export async function pageLatency(baseUrl: string, path: string, cookie: string, s: { warmup: number; count: number; seconds: number }): Promise<Point> {
  const base = { baseUrl, path, headers: { cookie } };
  await timeSequential({ ...base, count: s.warmup, seconds: s.seconds });
  const r = await timeSequential({ ...base, count: s.count, seconds: s.seconds });
  if (r.errors > 0) throw new Error(`GET ${path} answered ${r.errors} errors`);
  return { p50: r.p50, p99: r.p99 };
}

/** `name`'s p50 at the largest table at most `maxMs`, and at most 1.5× (+0.5 ms) its p50 at the smallest. */
export function pageTargets(name: string, maxMs: number, small: { rows: number; p50: number }, big: { rows: number; p50: number }): TargetResult[] {
  return [
    { name: `${name}, p50 at ${int(big.rows)} rows`, target: `<= ${maxMs} ms`, figure: `${ms(big.p50)} ms`, met: big.p50 <= maxMs },
    {
      name: `${name} stays flat as the table grows ${int(small.rows)} → ${int(big.rows)} rows`,
      target: '<= 1.5× (+0.5 ms)',
      figure: `${(big.p50 / small.p50).toFixed(2)}× (${ms(small.p50)} → ${ms(big.p50)} ms)`,
      met: big.p50 <= 1.5 * small.p50 + 0.5,
    },
  ];
}
