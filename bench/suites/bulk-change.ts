/**
 * A change of many tasks at once (POST /api/tasks/bulk) with the database 10 ms away: Taskwise
 * talks to PostgreSQL through the proxy of the remote-db suite (5 ms each way), which counts the
 * round trips. One signed-in user changes the priority of N of their tasks in one call (every
 * call really changes every task: the priority flips). The same call on SQLite (in-process: no
 * round trips) for comparison. The PostgreSQL part needs TEST_DATABASE_URL.
 */
import { seedBoardDataset } from '../lib/datasets.ts';
import { startDelayProxy } from '../lib/delay-proxy.ts';
import { BENCH_PASSWORD, makeTarget, type DbKind } from '../lib/db.ts';
import { loadAverage, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import type { BenchOptions, BenchSuite } from '../suite.ts';

const DELAY_MS = 5;
const TRIPS_MAX = 10;
const MS_MAX = 1000;

interface Measured {
  elapsed: number;
  /** Round trips counted by the proxy; undefined on SQLite (in-process). */
  trips: number | undefined;
}

/** `runs` calls changing `size` tasks (after one warm-up) on a fresh database of `kind`; PostgreSQL through the delaying proxy. */
async function measure(kind: DbKind, opts: BenchOptions, size: number, runs: number): Promise<Measured[]> {
  const target = await makeTarget(kind, opts, `bulk-${kind}`);
  let server: RunningServer | undefined;
  let proxy: Awaited<ReturnType<typeof startDelayProxy>> | undefined;
  try {
    const data = await seedBoardDataset(target, { otherUsers: 5, otherTasks: 200, viewers: [], writerTasks: size });
    let databaseUrl = target.url;
    if (kind === 'postgres') {
      const direct = new URL(target.url);
      proxy = await startDelayProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, DELAY_MS);
      const proxied = new URL(target.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      databaseUrl = proxied.toString();
    }
    server = await startTaskwise({ databaseUrl, dir: opts.tmpDir, name: `bulk-change-taskwise-${kind}` });
    const cookie = await signIn(server.baseUrl, data.writer.email, BENCH_PASSWORD);
    const change = async (i: number): Promise<Measured> => {
      const started = performance.now();
      const before = proxy?.trips() ?? 0;
      const res = await fetch(`${server?.baseUrl ?? ''}/api/tasks/bulk`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ taskIds: data.writerTaskIds, change: { priority: i % 2 === 0 ? 'urgent' : 'low' } }),
      });
      const elapsed = performance.now() - started;
      if (res.status !== 200) throw new Error(`POST /api/tasks/bulk: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      return { elapsed, trips: proxy === undefined ? undefined : proxy.trips() - before };
    };
    await change(1);
    const measured: Measured[] = [];
    for (let i = 0; i < runs; i++) measured.push(await change(i));
    return measured;
  } finally {
    await server?.stop();
    await proxy?.close();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'bulk-change',
  async run(opts) {
    const title = `A change of many tasks at once, the database 10 ms away (PostgreSQL behind a ${DELAY_MS} ms-each-way proxy)`;
    const size = opts.quick ? 20 : 500;
    const runs = opts.quick ? 1 : 3;
    const sqlite = await measure('sqlite', opts, size, runs);
    const postgres = opts.postgresUrl === undefined ? undefined : await measure('postgres', opts, size, runs);
    const line = (m: Measured) => `${ms(m.elapsed)} ms${m.trips === undefined ? '' : ` / ${m.trips} trips`}`;
    opts.log(`bulk-change: ${size} tasks: SQLite ${sqlite.map(line).join(', ')}; PostgreSQL ${postgres?.map(line).join(', ') ?? 'skipped (TEST_DATABASE_URL is not set)'}`);
    const rows = (database: string, measured: readonly Measured[]) =>
      measured.map((m, i) => [database, String(i + 1), String(size), ms(m.elapsed), m.trips === undefined ? 'none (in-process)' : String(m.trips)]);
    const markdown = [
      `One call changing the priority of ${size} tasks, ${runs} measured after one warm-up per database; round trips counted by the proxy over everything ` +
        `the app sends during the call. The machine is shared with other work and loaded: load average after ${loadAverage()}.` +
        (postgres === undefined ? ' PostgreSQL skipped: TEST_DATABASE_URL is not set.' : ''),
      '',
      table(['database', 'run', 'tasks', 'ms', 'round trips'], [...rows('SQLite', sqlite), ...rows('PostgreSQL, 10 ms away', postgres ?? [])]),
    ].join('\n');
    if (postgres === undefined) return [{ title, markdown }];
    const worst = postgres.reduce((a, b) => (b.elapsed > a.elapsed ? b : a));
    const mostTrips = Math.max(...postgres.map((m) => m.trips ?? 0));
    return [
      {
        title,
        markdown,
        targets: [
          { name: `POST /api/tasks/bulk, ${size} tasks, PostgreSQL 10 ms away: round trips (most of the runs)`, target: `<= ${TRIPS_MAX}`, figure: String(mostTrips), met: opts.quick ? null : mostTrips <= TRIPS_MAX },
          { name: `POST /api/tasks/bulk, ${size} tasks, PostgreSQL 10 ms away: time (slowest run)`, target: `< ${MS_MAX} ms`, figure: `${ms(worst.elapsed)} ms`, met: opts.quick ? null : worst.elapsed < MS_MAX },
        ],
      },
    ];
  },
};
