/**
 * Search and sort (board features): GET /api/tasks with `q` and each `sort`, for a user who sees
 * 10,000 tasks, as the whole table grows to 1,000,000 rows (p50 ≤ 30 ms, and flat: each
 * database's text index or the user's own index ranges, never a scan of the table). Also a task
 * with 1,000 comments: its page's three calls (task, comments, activity) one after the other,
 * ≤ 300 ms. One connection, so the figures are latencies of single requests.
 */
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { BENCH_PASSWORD, benchUser, dbLabel, makeTarget, migrate, openSeeder, otherUsers, othersTasks, TaskFactory, visibleTasks, type DbKind, type UserSeed } from '../lib/db.ts';
import { int, loadAverage, ms, table } from '../lib/env.ts';
import { signIn, timeSequential } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

/** Seeded titles are "<verb> <thing> #<n>" (bench/lib/db.ts): "invoice" matches about 1 in 12 rows of the whole table. */
const CALLS = [
  { key: 'common', label: 'q=invoice (1 in 12 rows match), limit 50', path: '/api/tasks?q=invoice&limit=50' },
  { key: 'rare', label: 'q=#4242 (a few rows match), limit 50', path: `/api/tasks?q=${encodeURIComponent('#4242')}&limit=50` },
  { key: 'short', label: 'q=qa (2 characters, no trigram), limit 50', path: '/api/tasks?q=qa&limit=50' },
  { key: 'counts', label: 'counts, q=invoice', path: '/api/tasks/counts?q=invoice' },
  { key: 'newest', label: 'sort=newest, status=todo, limit 50', path: '/api/tasks?status=todo&limit=50' },
  { key: 'deadline', label: 'sort=deadline, status=todo, limit 50', path: '/api/tasks?sort=deadline&status=todo&limit=50' },
  { key: 'priority', label: 'sort=priority, status=todo, limit 50', path: '/api/tasks?sort=priority&status=todo&limit=50' },
] as const;
type CallKey = (typeof CALLS)[number]['key'];

function settings(quick: boolean) {
  return quick
    ? { visible: 1000, tableSizes: [0, 20_000], count: 20, seconds: 0.5, warmup: 3, comments: 100 }
    : { visible: 10_000, tableSizes: [0, 1_000_000], count: 200, seconds: 3, warmup: 20, comments: 1000 };
}

async function post(baseUrl: string, path: string, cookie: string, body: unknown): Promise<{ _id: string }> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status} ${text}`);
  const data = (JSON.parse(text) as { data: Record<string, { _id: string }> }).data;
  return Object.values(data)[0]!;
}

/** GET task + comments + activity of a task with many comments, one after the other. */
async function taskPage(baseUrl: string, cookie: string, taskId: string, s: ReturnType<typeof settings>) {
  const times: number[] = [];
  const paths = [`/api/tasks/${taskId}`, `/api/tasks/${taskId}/comments`, `/api/tasks/${taskId}/activity`];
  for (let i = 0; i < s.warmup + Math.min(s.count, 50); i++) {
    const t0 = performance.now();
    for (const path of paths) {
      const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
    }
    if (i >= s.warmup) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]! };
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<BenchSection> {
  const s = settings(opts.quick);
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'search');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const factory = new TaskFactory(11);
    const viewer = await benchUser(`search-${kind}`);
    const assignees = otherUsers(100, 'search-assignee');
    await seeder.insertUsers([viewer, ...assignees]);
    await seeder.insertTasks(s.visible, visibleTasks(factory, viewer, assignees, s.visible));

    const results = new Map<number, Record<CallKey, { p50: number; p99: number }>>();
    let page: { p50: number; p99: number } | undefined;
    let othersSoFar = 0;
    for (const size of s.tableSizes) {
      const wanted = Math.max(0, size - s.visible);
      if (wanted > othersSoFar) {
        const t0 = performance.now();
        const others: UserSeed[] = otherUsers(Math.ceil((wanted - othersSoFar) / 100), `search${size}-`);
        await seeder.insertUsers(others);
        await seeder.insertTasks(wanted - othersSoFar, othersTasks(factory, others));
        othersSoFar = wanted;
        opts.log(`search/${label}: seeded ${int(wanted)} other rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      await seeder.analyze();
      const rows = await seeder.countTasks();
      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `search-${kind}-${size}` });
      const cookie = await signIn(server.baseUrl, viewer.email, BENCH_PASSWORD);
      const point = {} as Record<CallKey, { p50: number; p99: number }>;
      for (const call of CALLS) {
        const base = { baseUrl: server.baseUrl, path: call.path, headers: { cookie } };
        await timeSequential({ ...base, count: s.warmup, seconds: s.seconds });
        const r = await timeSequential({ ...base, count: s.count, seconds: s.seconds });
        if (r.errors > 0) throw new Error(`GET ${call.path} answered ${r.errors} errors`);
        point[call.key] = { p50: r.p50, p99: r.p99 };
      }
      opts.log(`search/${label}: ${int(rows)} rows: ${CALLS.map((c) => `${c.key} ${ms(point[c.key].p50)}`).join(', ')} ms`);
      results.set(rows, point);
      if (size === s.tableSizes.at(-1)) {
        const task = await post(server.baseUrl, '/api/tasks', cookie, { taskTitle: 'A much discussed task', assignee: viewer.email, description: 'Talk here.' });
        for (let i = 0; i < s.comments; i++) await post(server.baseUrl, `/api/tasks/${task._id}/comments`, cookie, { body: `Comment number ${i + 1}: a line of text someone wrote.` });
        page = await taskPage(server.baseUrl, cookie, task._id, s);
        opts.log(`search/${label}: task with ${int(s.comments)} comments: task + comments + activity p50 ${ms(page.p50)} ms`);
      }
      await server.stop();
      server = undefined;
    }
    await seeder.close();

    const sizes = [...results.keys()];
    const smallest = sizes[0]!;
    const biggest = sizes.at(-1)!;
    const at = (size: number, key: CallKey) => results.get(size)![key].p50;
    const targets: TargetResult[] = [];
    for (const call of CALLS) {
      targets.push({
        name: `${label}: ${call.label}, user sees ${int(s.visible)}, ${int(biggest)} rows: p50`,
        target: '<= 30 ms',
        figure: `${ms(at(biggest, call.key))} ms`,
        met: opts.quick ? null : at(biggest, call.key) <= 30,
      });
      targets.push({
        name: `${label}: ${call.label} stays flat as the table grows ${int(smallest)} → ${int(biggest)} rows`,
        target: '<= 1.5× (+0.5 ms)',
        figure: `${(at(biggest, call.key) / at(smallest, call.key)).toFixed(2)}× (${ms(at(smallest, call.key))} → ${ms(at(biggest, call.key))} ms)`,
        met: opts.quick ? null : at(biggest, call.key) <= 1.5 * at(smallest, call.key) + 0.5,
      });
    }
    if (page !== undefined) {
      targets.push({
        name: `${label}: a task with ${int(s.comments)} comments: GET task + comments + activity, p50`,
        target: '<= 300 ms',
        figure: `${ms(page.p50)} ms`,
        met: opts.quick ? null : page.p50 <= 300,
      });
    }
    const markdown = [
      `Database: ${label}. p50 / p99 in ms of single requests one after the other on one keep-alive connection ` +
        `(${s.count} requests or ${s.seconds} s, after ${s.warmup} warm-up requests); the user sees ${int(s.visible)} tasks ` +
        `(half created by them, half assigned to them). Load average after: ${loadAverage()}.`,
      '',
      table(
        ['call', ...sizes.map((n) => `${int(n)} rows in table`)],
        CALLS.map((call) => [call.label, ...sizes.map((size) => `${ms(results.get(size)![call.key].p50)} / ${ms(results.get(size)![call.key].p99)}`)]),
      ),
      '',
      page === undefined ? '' : `A task with ${int(s.comments)} comments (and as many activity entries): GET task + comments + activity, one after the other: p50 ${ms(page.p50)} ms, p99 ${ms(page.p99)} ms.`,
    ].join('\n');
    return { title: `Search and sort, ${label}`, markdown, targets };
  } finally {
    if (server !== undefined) await server.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'search',
  async run(opts) {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const sections: BenchSection[] = [];
    for (const kind of kinds) sections.push(await runDatabase(kind, opts));
    return sections;
  },
};
