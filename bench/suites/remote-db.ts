/**
 * Writes against a database on another host: Taskwise (started as `npm start` starts it) talks
 * to PostgreSQL through a proxy that delays every chunk 5 ms each way (bench/lib/delay-proxy.ts,
 * a 10 ms round trip). One signed-in user, one call at a time: GET /api/users/me (one trip, the
 * session check) is the yardstick; POST /api/tasks and PATCH /api/tasks/:id are measured against
 * it, and the proxy counts the round trips of each call. PostgreSQL only (TEST_DATABASE_URL).
 */
import { seedBoardDataset } from '../lib/datasets.ts';
import { startDelayProxy } from '../lib/delay-proxy.ts';
import { BENCH_PASSWORD, makeTarget } from '../lib/db.ts';
import { loadAverage, ms, table } from '../lib/env.ts';
import { signIn, timeSequential } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import type { BenchSuite, TargetResult } from '../suite.ts';

const DELAY_MS = 5;
/** Latency of a call / latency of GET /api/users/me (p50), at most. */
const TARGETS: Record<string, number> = { 'POST /api/tasks': 3, 'PATCH /api/tasks/:id': 3.5 };
/** Round trips of one move of a card to the top of another column, at most (as a PATCH). */
const MOVE_TRIPS = 3;

interface Measured {
  call: string;
  p50: number;
  p95: number;
  trips: number;
  calls: number;
}

export const suite: BenchSuite = {
  name: 'remote-db',
  async run(opts) {
    const title = `Writes with the database 10 ms away (PostgreSQL behind a ${DELAY_MS} ms-each-way proxy)`;
    if (opts.postgresUrl === undefined) return [{ title, markdown: 'Skipped: TEST_DATABASE_URL is not set.' }];
    const count = opts.quick ? 30 : 200;
    const warmup = opts.quick ? 5 : 20;
    const target = await makeTarget('postgres', opts, 'remote');
    let server: RunningServer | undefined;
    let proxy: Awaited<ReturnType<typeof startDelayProxy>> | undefined;
    try {
      const data = await seedBoardDataset(target, { otherUsers: 20, otherTasks: 2000, viewers: [], writerTasks: 10 });
      const direct = new URL(target.url);
      proxy = await startDelayProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, DELAY_MS);
      const proxied = new URL(target.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      server = await startTaskwise({ databaseUrl: proxied.toString(), dir: opts.tmpDir, name: 'remote-db-taskwise' });
      const cookie = await signIn(server.baseUrl, data.writer.email, BENCH_PASSWORD);
      const base = { baseUrl: server.baseUrl, headers: { cookie }, seconds: 120 };
      const assignee = data.others[0]!.email;
      const taskId = data.writerTaskIds[0]!;
      const created: string[] = [];
      // A move between the board's first column and a second one, to the top of each in turn.
      const moved = data.writerTaskIds[1]!;
      const json = async (path: string, init: RequestInit = {}) => ((await (await fetch(`${server!.baseUrl}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json' } })).json()) as { data: Record<string, unknown> }).data;
      const first = ((await json(`/api/boards/${data.writer.id}/columns`)).columns as { _id: string }[])[0]!._id;
      const doing = ((await json(`/api/boards/${data.writer.id}/columns`, { method: 'POST', body: JSON.stringify({ name: 'Doing', category: 'todo' }) })).column as { _id: string })._id;
      let version = ((await json(`/api/tasks/${moved}`)).task as { version: number }).version;
      let moves = 0;

      const cases: { call: string; run: (n: number, counting: boolean) => Parameters<typeof timeSequential>[0] }[] = [
        { call: 'GET /api/users/me', run: (n) => ({ ...base, path: '/api/users/me', count: n }) },
        {
          call: 'POST /api/tasks',
          // Assigned to someone else: the assignment mail is part of the write.
          run: (n) => ({ ...base, path: '/api/tasks', method: 'POST', count: n, body: JSON.stringify({ taskTitle: 'Benchmark task', assignee, priority: 'high', workTitle: 'Bench' }) }),
        },
        {
          call: 'PATCH /api/tasks/:id',
          // Every call really changes the task (its priority flips).
          run: (n) => ({ ...base, path: `/api/tasks/${taskId}`, method: 'PATCH', count: n, each: (i) => ({ body: JSON.stringify({ priority: i % 2 === 0 ? 'low' : 'high' }) }) }),
        },
        {
          call: 'POST /api/tasks/:id/move',
          run: (n) => ({
            ...base,
            path: `/api/tasks/${moved}/move`,
            method: 'POST',
            count: n,
            each: () => ({ body: JSON.stringify({ columnId: moves++ % 2 === 0 ? doing : first, afterId: null, version: version++ }) }),
          }),
        },
        {
          call: 'POST /api/tasks/:id/comments',
          run: (n) => ({ ...base, path: `/api/tasks/${taskId}/comments`, method: 'POST', count: n, body: JSON.stringify({ body: 'A benchmark comment' }) }),
        },
        {
          call: 'DELETE /api/tasks/:id',
          run: (n, counting) => {
            const ids = created.splice(0, n);
            if (counting && ids.length < n) throw new Error('not enough tasks to delete');
            return { ...base, path: '/api/tasks', method: 'DELETE', count: ids.length, each: (i) => ({ path: `/api/tasks/${ids[i]!}` }) };
          },
        },
      ];
      // Tasks for DELETE to remove, made before any measuring (direct, not timed).
      for (let i = 0; i < count + warmup; i++) {
        const res = await fetch(`${server.baseUrl}/api/tasks`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ taskTitle: 'To be deleted', assignee: data.writer.email }),
        });
        const body = (await res.json()) as { data: { task: { _id: string } } };
        created.push(body.data.task._id);
      }

      const measured: Measured[] = [];
      for (const c of cases) {
        await timeSequential(c.run(warmup, false));
        const before = proxy.trips();
        const r = await timeSequential(c.run(count, true));
        const trips = (proxy.trips() - before) / Math.max(1, r.ok + r.errors);
        if (r.errors > 0) throw new Error(`${c.call}: ${r.errors} calls failed`);
        measured.push({ call: c.call, p50: r.p50, p95: r.p95, trips, calls: r.ok });
        opts.log(`remote-db: ${c.call}: p50 ${ms(r.p50)} ms, p95 ${ms(r.p95)} ms, ${trips.toFixed(2)} trips/call`);
      }

      const me = measured[0]!;
      const targets: TargetResult[] = Object.entries(TARGETS).map(([call, wanted]) => {
        const row = measured.find((m) => m.call === call)!;
        const value = row.p50 / me.p50;
        return {
          name: `${call} / GET /api/users/me latency (p50), PostgreSQL 10 ms away, one call at a time`,
          target: `<= ${wanted}`,
          figure: `${value.toFixed(2)} (${ms(row.p50)} vs ${ms(me.p50)} ms; ${row.trips.toFixed(2)} vs ${me.trips.toFixed(2)} trips per call)`,
          met: value <= wanted,
        };
      });
      // The app's background work (the outbox worker's poll) adds a few hundredths per call to
      // every write's count; a PATCH's own is 3, so what a PATCH counts above 3 is that.
      const move = measured.find((m) => m.call === 'POST /api/tasks/:id/move')!;
      const patch = measured.find((m) => m.call === 'PATCH /api/tasks/:id')!;
      targets.push({
        name: 'POST /api/tasks/:id/move (to the top of another column): database round trips per move, session check included, PostgreSQL (background work as counted on a PATCH allowed)',
        target: `<= ${MOVE_TRIPS}, as a PATCH`,
        figure: `${move.trips.toFixed(2)} (PATCH ${patch.trips.toFixed(2)}; p50 ${ms(move.p50)} ms, ${(move.p50 / me.p50).toFixed(2)}× GET /api/users/me)`,
        met: move.trips <= Math.max(MOVE_TRIPS, patch.trips) + 0.05,
      });
      const markdown = [
        `One signed-in user, calls one at a time over keep-alive, ${count} measured calls each after ${warmup} warm-up calls. ` +
          `Round trips are counted by the proxy (a client chunk after the server last spoke starts one) over everything the app sends, ` +
          `so they include the work each write causes after its answer: for a mail, the outbox worker's claim and record; a read ` +
          `of the event log only while a stream is open on the instance (none is here: docs/decisions/111). Load average after: ${loadAverage()}.`,
        '',
        table(
          ['call', 'p50 ms', 'p95 ms', '× GET /api/users/me (p50)', 'round trips per call'],
          measured.map((m) => [m.call, ms(m.p50), ms(m.p95), (m.p50 / me.p50).toFixed(2), m.trips.toFixed(2)]),
        ),
        '',
        'POST assigns the task to another address (the assignment mail is written); PATCH flips the priority of one task; ' +
          'the move takes one task to the top of a second column of its board and back, in turn; ' +
          'DELETE removes tasks made for it before the run; the comment is added to the PATCHed task.',
      ].join('\n');
      return [{ title, markdown, targets }];
    } finally {
      await server?.stop();
      await proxy?.close();
      await target.drop();
    }
  },
};
