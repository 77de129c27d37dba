/**
 * Boards: GET /api/tasks over HTTP with the real server, for the two shapes shared boards bring:
 * one board of 20,000 tasks (`board=…&limit=50`) — and a twin of it whose every task carries 10
 * labels and a checklist, to show what task details cost a page —, and a person on 50 boards of 1,000 tasks each
 * asking for "all my tasks" (no `board=`, `limit=50`) in every sort, a second page, filters and
 * the counts. Measured with only these users' tasks in the table and again at 1,000,000 rows
 * (other people's tasks on their personal boards): a page should stay under 5 ms and flat as the
 * table grows. One connection, single requests one after the other (latency, not a queue).
 * `--quick` uses small shapes and a small table and never fails on a number.
 */
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { LABELS_PER_TASK, seedBoards, seedOthers, type BoardsDataset, type BoardsShape } from '../lib/boards-dataset.ts';
import { BENCH_PASSWORD, dbLabel, makeTarget, migrate, openSeeder, TaskFactory, type DbKind } from '../lib/db.ts';
import { int, loadAverage, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { pageLatency, pageTargets, type Point } from '../lib/page-latency.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

/** p50 of a page of 50 (ms), at the largest table. */
const PAGE_TARGET_MS = 5;
/** A page of the labelled board against a page of the big board (same shape, no labels): p50 at most this much slower. */
const DETAILS_COST_MAX = 1.2;

interface Call {
  key: string;
  who: 'big' | 'many';
  label: string;
  /** The path, given the dataset (the boards' ids). */
  path: (data: BoardsDataset) => string;
  /** A target of ≤ PAGE_TARGET_MS and flatness. */
  target: boolean;
  /** Follow the first page's nextCursor and time the second page instead. */
  second?: boolean;
}

const CALLS: Call[] = [
  { key: 'big', who: 'big', label: 'big board: ?board=…&limit=50', path: (d) => `/api/tasks?board=${d.bigBoardId}&limit=50`, target: true },
  {
    key: 'labelled',
    who: 'big',
    label: `labelled board (${LABELS_PER_TASK} labels and a checklist on every task): ?board=…&limit=50`,
    path: (d) => `/api/tasks?board=${d.labelledBoardId}&limit=50`,
    target: true,
  },
  {
    key: 'labelled-label',
    who: 'big',
    label: 'labelled board: ?board=…&label=…&limit=50 (one label, on every task)',
    path: (d) => `/api/tasks?board=${d.labelledBoardId}&label=${d.labelIds[0] ?? ''}&limit=50`,
    target: false,
  },
  { key: 'big-todo', who: 'big', label: 'big board: ?board=…&status=todo&sort=deadline&limit=50', path: (d) => `/api/tasks?board=${d.bigBoardId}&status=todo&sort=deadline&limit=50`, target: false },
  { key: 'big-counts', who: 'big', label: 'big board: /api/tasks/counts?board=…', path: (d) => `/api/tasks/counts?board=${d.bigBoardId}`, target: false },
  { key: 'many', who: 'many', label: 'all my tasks: ?limit=50 (newest)', path: () => '/api/tasks?limit=50', target: true },
  { key: 'many-todo', who: 'many', label: 'all my tasks: ?status=todo&limit=50', path: () => '/api/tasks?status=todo&limit=50', target: true },
  { key: 'many-next', who: 'many', label: 'all my tasks: ?limit=50, second page (cursor)', path: () => '/api/tasks?limit=50', target: true, second: true },
  { key: 'many-deadline', who: 'many', label: 'all my tasks: ?sort=deadline&limit=50', path: () => '/api/tasks?sort=deadline&limit=50', target: true },
  { key: 'many-priority-all', who: 'many', label: 'all my tasks: ?sort=priority&limit=50', path: () => '/api/tasks?sort=priority&limit=50', target: true },
  { key: 'many-priority', who: 'many', label: 'all my tasks: ?status=todo&sort=priority&limit=50', path: () => '/api/tasks?status=todo&sort=priority&limit=50', target: true },
  { key: 'many-urgent', who: 'many', label: 'all my tasks: ?status=todo&priority=urgent&limit=50', path: () => '/api/tasks?status=todo&priority=urgent&limit=50', target: false },
  { key: 'many-assigned', who: 'many', label: 'all my tasks: ?view=assigned-to-me&limit=50', path: () => '/api/tasks?view=assigned-to-me&limit=50', target: false },
  { key: 'many-counts', who: 'many', label: 'all my tasks: /api/tasks/counts', path: () => '/api/tasks/counts', target: true },
];

function settings(quick: boolean): { shape: BoardsShape; tableSize: number; count: number; seconds: number; warmup: number } {
  return quick
    ? { shape: { bigBoard: 2_000, boards: 10, perBoard: 200, assignedElsewhere: 50 }, tableSize: 20_000, count: 30, seconds: 0.5, warmup: 5 }
    : { shape: { bigBoard: 20_000, boards: 50, perBoard: 1_000, assignedElsewhere: 200 }, tableSize: 1_000_000, count: 300, seconds: 3, warmup: 30 };
}

/** The path of the second page: the first page's nextCursor. */
async function secondPage(baseUrl: string, path: string, cookie: string): Promise<string> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
  const body = (await res.json()) as { data?: { nextCursor?: string | null } };
  const cursor = body.data?.nextCursor;
  if (typeof cursor !== 'string') throw new Error(`GET ${path} gave no nextCursor`);
  return `${path}&cursor=${encodeURIComponent(cursor)}`;
}

async function measure(server: RunningServer, data: BoardsDataset, s: ReturnType<typeof settings>): Promise<Map<string, Point>> {
  const cookies = {
    big: await signIn(server.baseUrl, data.bigUser.email, BENCH_PASSWORD),
    many: await signIn(server.baseUrl, data.manyUser.email, BENCH_PASSWORD),
  };
  const out = new Map<string, Point>();
  for (const call of CALLS) {
    const cookie = cookies[call.who];
    let path = call.path(data);
    if (call.second === true) path = await secondPage(server.baseUrl, path, cookie);
    out.set(call.key, await pageLatency(server.baseUrl, path, cookie, s));
  }
  return out;
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<BenchSection> {
  const s = settings(opts.quick);
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'boards');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const factory = new TaskFactory(11);
    const seedTimes: string[] = [];
    let t0 = performance.now();
    const data = await seedBoards(seeder, s.shape, kind, factory);
    seedTimes.push(`the shapes (${int(data.tasks)} tasks): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // results by table size
    const results = new Map<number, Map<string, Point>>();
    for (const grow of [false, true]) {
      if (grow) {
        t0 = performance.now();
        await seedOthers(seeder, s.tableSize - data.tasks, `boards-other-${kind}-`, factory);
        seedTimes.push(`up to ${int(s.tableSize)}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      await seeder.analyze();
      const rows = await seeder.countTasks();
      // A fresh server per size: no plan or statement cached from the smaller table.
      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `boards-${kind}-${rows}` });
      const points = await measure(server, data, s);
      opts.log(`boards/${label}: ${int(rows)} rows: ${CALLS.map((c) => `${c.key} ${ms(points.get(c.key)!.p50)}`).join(', ')} ms`);
      results.set(rows, points);
      await server.stop();
      server = undefined;
    }
    await seeder.close();

    const sizes = [...results.keys()];
    const smallest = sizes[0]!;
    const biggest = sizes.at(-1)!;
    const at = (size: number, key: string) => results.get(size)!.get(key)!;
    const markdown = [
      `Database: ${label}. Each figure: p50 / p99 in ms of single requests one after the other on one keep-alive connection ` +
        `(${s.count} requests or ${s.seconds} s, whichever ends first, after ${s.warmup} warm-up requests). ` +
        `A member of one board of ${int(s.shape.bigBoard)} tasks; a member of ${s.shape.boards} boards of ${int(s.shape.perBoard)} tasks each ` +
        `(the boards' tasks created by 20 fellow members, one in ten assigned to the user, 30 % done) and assignee of ${s.shape.assignedElsewhere} tasks on boards they are not on. ` +
        `The smallest table holds these users' tasks only; the table then grows with other people's tasks on their personal boards. ` +
        `Seeding: ${seedTimes.join('; ')}. Load average after: ${loadAverage()}.`,
      '',
      table(
        ['call', ...sizes.map((n) => `${int(n)} rows in table`)],
        CALLS.map((call) => [call.label, ...sizes.map((size) => `${ms(at(size, call.key).p50)} / ${ms(at(size, call.key).p99)}`)]),
      ),
    ].join('\n');
    const targets: TargetResult[] = [];
    for (const call of CALLS.filter((c) => c.target)) {
      targets.push(...pageTargets(`${label}: ${call.label}`, PAGE_TARGET_MS, { rows: smallest, p50: at(smallest, call.key).p50 }, { rows: biggest, p50: at(biggest, call.key).p50 }));
    }
    const plain = at(biggest, 'big').p50;
    const labelled = at(biggest, 'labelled').p50;
    targets.push({
      name: `${label}: a page of 50 cards with ${LABELS_PER_TASK} labels and a checklist each against a page without, p50 at ${int(biggest)} rows`,
      target: `<= ${DETAILS_COST_MAX}×`,
      figure: `${(labelled / plain).toFixed(2)}× (${ms(plain)} → ${ms(labelled)} ms)`,
      met: labelled <= DETAILS_COST_MAX * plain,
    });
    return { title: `Boards: a board of ${int(s.shape.bigBoard)} and "all my tasks" on ${s.shape.boards} boards, ${label}`, markdown, targets };
  } finally {
    if (server !== undefined) await server.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'boards',
  async run(opts) {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const sections: BenchSection[] = [];
    for (const kind of kinds) sections.push(await runDatabase(kind, opts));
    return sections;
  },
};
