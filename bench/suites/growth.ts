/**
 * Growth: GET /api/tasks latency as a user's visible tasks grow 10 → 100 → 1,000 → 10,000
 * (should grow linearly, no worse), and as the whole table grows to 1,000,000 rows with each
 * user's count fixed (should stay flat: the indexes find a user's rows without reading the
 * others'). Also the board's calls at every size: a page of 50 open tasks newest first and
 * soonest deadline first, a page of done tasks, and /api/tasks/counts. Besides the users whose
 * tasks are half created by them and half assigned to them, one user keeps 17,900 tasks for
 * themselves (created by and assigned to them: every task is in both branches of the board
 * query), the usual board of one person; its page of 50 has a target of 2 ms.
 * One connection, so the figures are latencies of a single request, not of a queue.
 */
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { BENCH_PASSWORD, benchUser, dbLabel, sectionsPerDatabase, makeTarget, migrate, openSeeder, otherUsers, othersTasks, ownTasks, TaskFactory, visibleTasks, type BenchUser, type DbKind, type UserSeed } from '../lib/db.ts';
import { int, loadAverage, ms, table } from '../lib/env.ts';
import { signIn, timeSequential } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const CALLS = [
  { key: 'list', label: 'GET /api/tasks (whole list)', path: '/api/tasks' },
  { key: 'page', label: 'GET /api/tasks?status=todo&limit=50', path: '/api/tasks?status=todo&limit=50' },
  { key: 'deadline', label: 'GET /api/tasks?status=todo&sort=deadline&limit=50', path: '/api/tasks?status=todo&sort=deadline&limit=50' },
  { key: 'paged', label: 'GET /api/tasks?status=done&limit=50', path: '/api/tasks?status=done&limit=50' },
  { key: 'counts', label: 'GET /api/tasks/counts', path: '/api/tasks/counts' },
] as const;
type CallKey = (typeof CALLS)[number]['key'];

/** Tasks of the user who keeps their own (created by and assigned to themselves). */
const OWN_TASKS = 17_900;
/** p50 of a page of 50 for that user, at the largest table (ms). */
const OWN_PAGE_TARGET_MS = 2;
/** The row label of that user in the tables. */
const OWN = `${int(OWN_TASKS)} own`;

interface Point {
  p50: number;
  p99: number;
  requests: number;
}

function settings(quick: boolean) {
  return quick
    ? { visible: [10, 100, 1000], tableSizes: [0, 50_000], count: 30, seconds: 0.5, warmup: 5, linearFrom: 100, linearTo: 1000 }
    : { visible: [10, 100, 1000, 10_000], tableSizes: [0, 100_000, 1_000_000], count: 400, seconds: 2, warmup: 20, linearFrom: 1000, linearTo: 10_000 };
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<{ section: BenchSection; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'growth');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const factory = new TaskFactory(7);
    // By row label: the number of tasks seen (half created, half assigned), or OWN.
    const viewers = new Map<string, BenchUser>();
    for (const n of s.visible) viewers.set(int(n), await benchUser(`growth${n}-${kind}`));
    const own = await benchUser(`growth-own-${kind}`);
    const assignees = otherUsers(100, 'assignee');
    await seeder.insertUsers([...viewers.values(), own, ...assignees]);
    for (const n of s.visible) await seeder.insertTasks(n, visibleTasks(factory, viewers.get(int(n))!, assignees, n));
    await seeder.insertTasks(OWN_TASKS, ownTasks(factory, own));
    viewers.set(OWN, own);
    const viewerRows = s.visible.reduce((a, b) => a + b, 0) + OWN_TASKS;

    // results[tableSize][row label][call]
    const results = new Map<number, Map<string, Record<CallKey, Point>>>();
    const seedTimes: string[] = [];
    let others: UserSeed[] = [];
    let othersSoFar = 0;
    for (const size of s.tableSizes) {
      const wanted = Math.max(0, size - viewerRows);
      if (wanted > othersSoFar) {
        const t0 = performance.now();
        // About 100 tasks per other user, as on a real multi-user instance.
        const newOthers = otherUsers(Math.ceil((wanted - othersSoFar) / 100), `other${size}-`);
        await seeder.insertUsers(newOthers);
        others = newOthers;
        await seeder.insertTasks(wanted - othersSoFar, othersTasks(factory, others));
        othersSoFar = wanted;
        seedTimes.push(`${int(wanted + viewerRows)} rows: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      await seeder.analyze();
      const rows = await seeder.countTasks();
      opts.log(`growth/${label}: ${int(rows)} tasks in the table`);

      // A fresh server per size: no plan or statement cached from a smaller table.
      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `growth-${kind}-${size}` });
      const bySize = new Map<string, Record<CallKey, Point>>();
      for (const [n, viewer] of viewers) {
        const cookie = await signIn(server.baseUrl, viewer.email, BENCH_PASSWORD);
        const point = {} as Record<CallKey, Point>;
        for (const call of CALLS) {
          const base = { baseUrl: server.baseUrl, path: call.path, headers: { cookie } };
          await timeSequential({ ...base, count: s.warmup, seconds: s.seconds });
          const r = await timeSequential({ ...base, count: s.count, seconds: s.seconds });
          if (r.errors > 0) throw new Error(`GET ${call.path} answered ${r.errors} errors`);
          point[call.key] = { p50: r.p50, p99: r.p99, requests: r.ok };
        }
        opts.log(
          `growth/${label}: ${int(rows)} rows, sees ${n}: list p50 ${ms(point.list.p50)} ms, page ${ms(point.page.p50)} ms, deadline ${ms(point.deadline.p50)} ms, paged ${ms(point.paged.p50)} ms, counts ${ms(point.counts.p50)} ms`,
        );
        bySize.set(n, point);
      }
      results.set(rows, bySize);
      await server.stop();
      server = undefined;
    }
    await seeder.close();

    const sizes = [...results.keys()];
    const sections: string[] = [
      `Database: ${label}. Each figure: p50 / p99 in ms of single requests one after the other on one keep-alive connection ` +
        `(${s.count} requests or ${s.seconds} s, whichever ends first, after ${s.warmup} warm-up requests); ` +
        `the user's tasks are half created by them, half assigned to them, 30 % done; the "${OWN}" user created ${int(OWN_TASKS)} tasks assigned to themselves, 30 % done. Seeding: ${seedTimes.join('; ') || 'viewers only'}. Load average after: ${loadAverage()}.`,
    ];
    for (const call of CALLS) {
      sections.push(
        '',
        `**${call.label}**`,
        '',
        table(
          ['tasks the user sees', ...sizes.map((n) => `${int(n)} rows in table`), ...(call.key === 'list' ? ['µs per task (largest table)'] : [])],
          [...viewers.keys()].map((n) => {
            const cells = sizes.map((size) => {
              const p = results.get(size)!.get(n)![call.key];
              return `${ms(p.p50)} / ${ms(p.p99)}`;
            });
            const largest = results.get(sizes.at(-1)!)!.get(n)![call.key];
            const seen = n === OWN ? OWN_TASKS : Number(n.replaceAll(',', ''));
            return [n, ...cells, ...(call.key === 'list' ? [((largest.p50 * 1000) / seen).toFixed(1)] : [])];
          }),
        ),
      );
    }

    const targets: TargetResult[] = [];
    const biggest = sizes.at(-1)!;
    const smallest = sizes[0]!;
    const at = (size: number, n: number | string, key: CallKey) => results.get(size)!.get(typeof n === 'number' ? int(n) : n)![key].p50;
    const growth = at(biggest, s.linearTo, 'list') / at(biggest, s.linearFrom, 'list');
    const factor = s.linearTo / s.linearFrom;
    targets.push({
      name: `${label}: GET /api/tasks grows linearly with the user's tasks (p50 at ${int(s.linearTo)} / at ${int(s.linearFrom)}, ${int(biggest)} rows)`,
      target: `<= ${factor * 1.2} (${factor}× the tasks, +20 %)`,
      figure: `${growth.toFixed(1)} (${ms(at(biggest, s.linearTo, 'list'))} vs ${ms(at(biggest, s.linearFrom, 'list'))} ms)`,
      met: growth <= factor * 1.2,
    });
    for (const call of CALLS) {
      const n = call.key === 'list' ? 100 : s.visible.at(-1)!;
      const flat = at(biggest, n, call.key) / at(smallest, n, call.key);
      // Half a millisecond of slack: sub-millisecond figures on a shared machine jitter by that much.
      const met = at(biggest, n, call.key) <= 1.5 * at(smallest, n, call.key) + 0.5;
      targets.push({
        name: `${label}: ${call.label} (user sees ${int(n)}) stays flat as the table grows ${int(smallest)} → ${int(biggest)} rows`,
        target: '<= 1.5× (+0.5 ms)',
        figure: `${flat.toFixed(2)}× (${ms(at(smallest, n, call.key))} → ${ms(at(biggest, n, call.key))} ms)`,
        met,
      });
    }
    for (const key of ['page', 'deadline'] as const) {
      const call = CALLS.find((c) => c.key === key)!;
      targets.push({
        name: `${label}: ${call.label} for a user with ${int(OWN_TASKS)} tasks assigned to themselves (p50, ${int(biggest)} rows)`,
        target: `<= ${OWN_PAGE_TARGET_MS} ms`,
        figure: `${ms(at(biggest, OWN, key))} ms (counts ${ms(at(biggest, OWN, 'counts'))} ms)`,
        met: at(biggest, OWN, key) <= OWN_PAGE_TARGET_MS,
      });
    }
    return { section: { title: `Growth: latency by tasks seen and by table size, ${label}`, markdown: sections.join('\n') }, targets };
  } finally {
    if (server !== undefined) await server.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'growth',
  run: (opts) => sectionsPerDatabase(opts, (kind) => runDatabase(kind, opts)),
};
