/**
 * A change of many tasks at once (POST /api/tasks/bulk) with the database 10 ms away: Taskwise
 * talks to PostgreSQL through the proxy of the remote-db suite (5 ms each way), which counts the
 * round trips. One signed-in user changes the priority of N of their tasks in one call (every
 * call really changes every task: the priority flips). PostgreSQL only (TEST_DATABASE_URL).
 */
import { seedBoardDataset } from '../lib/datasets.ts';
import { startDelayProxy } from '../lib/delay-proxy.ts';
import { BENCH_PASSWORD, makeTarget } from '../lib/db.ts';
import { loadAverage, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import type { BenchSuite } from '../suite.ts';

const DELAY_MS = 5;
const TRIPS_MAX = 10;
const MS_MAX = 1000;

export const suite: BenchSuite = {
  name: 'bulk-change',
  async run(opts) {
    const title = `A change of many tasks at once, the database 10 ms away (PostgreSQL behind a ${DELAY_MS} ms-each-way proxy)`;
    if (opts.postgresUrl === undefined) return [{ title, markdown: 'Skipped: TEST_DATABASE_URL is not set.' }];
    const size = opts.quick ? 20 : 500;
    const runs = opts.quick ? 1 : 3;
    const target = await makeTarget('postgres', opts, 'bulk');
    let server: RunningServer | undefined;
    let proxy: Awaited<ReturnType<typeof startDelayProxy>> | undefined;
    try {
      const data = await seedBoardDataset(target, { otherUsers: 5, otherTasks: 200, viewers: [], writerTasks: size });
      const direct = new URL(target.url);
      proxy = await startDelayProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, DELAY_MS);
      const proxied = new URL(target.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      server = await startTaskwise({ databaseUrl: proxied.toString(), dir: opts.tmpDir, name: 'bulk-change-taskwise' });
      const cookie = await signIn(server.baseUrl, data.writer.email, BENCH_PASSWORD);
      const change = async (i: number) => {
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
        return { elapsed, trips: (proxy?.trips() ?? 0) - before };
      };
      await change(1);
      const measured: { elapsed: number; trips: number }[] = [];
      for (let i = 0; i < runs; i++) measured.push(await change(i));
      const worst = measured.reduce((a, b) => (b.elapsed > a.elapsed ? b : a));
      opts.log(`bulk-change: ${size} tasks: ${measured.map((m) => `${ms(m.elapsed)} ms / ${m.trips} trips`).join(', ')}`);
      const markdown = [
        `One call changing the priority of ${size} tasks, ${runs} measured after one warm-up; round trips counted by the proxy over everything ` +
          `the app sends during the call. The machine is shared with other work and loaded: load average after ${loadAverage()}.`,
        '',
        table(
          ['run', 'tasks', 'ms', 'round trips'],
          measured.map((m, i) => [String(i + 1), String(size), ms(m.elapsed), String(m.trips)]),
        ),
      ].join('\n');
      return [
        {
          title,
          markdown,
          targets: [
            { name: `POST /api/tasks/bulk, ${size} tasks, PostgreSQL 10 ms away: round trips`, target: `<= ${TRIPS_MAX}`, figure: String(worst.trips), met: opts.quick ? null : worst.trips <= TRIPS_MAX },
            { name: `POST /api/tasks/bulk, ${size} tasks, PostgreSQL 10 ms away: time (slowest run)`, target: `< ${MS_MAX} ms`, figure: `${ms(worst.elapsed)} ms`, met: opts.quick ? null : worst.elapsed < MS_MAX },
          ],
        },
      ];
    } finally {
      await server?.stop();
      await proxy?.close();
      await target.drop();
    }
  },
};
