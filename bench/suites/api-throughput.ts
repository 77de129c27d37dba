/**
 * API over real HTTP, Taskwise (started as `npm start` starts it, request log on) side by side
 * with the bare baseline (bench/baseline-server.ts), on SQLite and on PostgreSQL: GET /api/health,
 * GET /api/users/me, GET /api/tasks for users who see 50 and 1,000 tasks in a table that also
 * holds 100,000 tasks of other users, POST /api/tasks, PATCH /api/tasks/:id and
 * POST /api/users/login, at 1, 10 and 100 connections. Targets are checked at 10 connections.
 *
 * The POST case assigns every task to another person, as one writer. The first 100 of them in
 * an hour write an assignment mail; past that the writer's mail cap holds the mail back (the
 * write still succeeds), so most of a run measures writes without a mail row, as the baseline's
 * writes are (it has no outbox).
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { BENCH_PASSWORD, dbLabel, makeTarget, openSeeder, type DbKind } from '../lib/db.ts';
import { seedBoardDataset, type BoardDataset } from '../lib/datasets.ts';
import { int, loadAverage, mb, ms, table } from '../lib/env.ts';
import { combineRounds, describeErrors, runLoad, signIn, type LoadRequest, type LoadResult } from '../lib/load.ts';
import { startBaseline, startTaskwise, type RunningServer } from '../lib/servers.ts';
import { summarize } from '../profile.ts';

const PROFILE_SECONDS = 5;

/**
 * Taskwise / baseline req/s at 10 connections, per call (a call without one has no target). A
 * page of 50 seen tasks is to be at least as fast as the bare server giving the same answer; the
 * writes at least 0.80 of it doing the same writes.
 */
const RATIO_TARGETS: Record<string, number> = {
  'GET /api/health': 0.8,
  'GET /api/users/me': 0.8,
  'GET /api/tasks (sees 50)': 1,
  'GET /api/tasks (sees 1,000)': 0.9,
  'POST /api/tasks': 0.8,
  'PATCH /api/tasks/:id': 0.8,
};

interface Case {
  name: string;
  /** Requests for connection number `c`, given the signed-in cookies of each server. */
  requests: (cookie: string, c: number) => LoadRequest[];
  /** Which benchmark user's session the case uses. */
  as: string;
}

interface Row {
  call: string;
  connections: number;
  taskwise: LoadResult;
  baseline: LoadResult;
}

function settings(quick: boolean) {
  return quick
    ? { otherTasks: 10_000, otherUsers: 100, connections: [10], rounds: 1, seconds: 1, warmup: 0.5, loginAmount: 10 }
    : { otherTasks: 100_000, otherUsers: 1_000, connections: [1, 10, 100], rounds: 3, seconds: 2, warmup: 1, loginAmount: 100 };
}

/** A copy of a (checkpointed, closed) SQLite file next to it; returns its DATABASE_URL. */
function copySqlite(url: string, suffix: string): string {
  const file = url.slice('file:'.length);
  const copy = file.replace(/\.db$/, `-${suffix}.db`);
  copyFileSync(file, copy);
  return `file:${copy}`;
}

const ratio = (t: LoadResult, b: LoadResult) => (b.rps > 0 ? t.rps / b.rps : Number.NaN);

/** The answer's parts that must match: status, body, and every security header. */
async function answer(server: RunningServer, path: string, cookie: string | undefined, init: { method?: string; body?: string } = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(cookie === undefined ? {} : { cookie }), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body,
  });
  const headers = Object.fromEntries(SECURITY_HEADERS.map((name) => [name, res.headers.get(name)]));
  return { status: res.status, headers, body: (await res.json()) };
}
const SECURITY_HEADERS = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'strict-transport-security', 'cross-origin-opener-policy', 'content-type'];

/** Ids and times differ between two servers writing the same thing; everything else must not. */
const stable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === '_id' || key === 'columnId' || key === 'createdAt' || key === 'updatedAt' || key === 'position' ? '…' : v)) as unknown;

async function checkSameAnswers(
  taskwise: RunningServer,
  baseline: RunningServer,
  cookies: Map<RunningServer, Map<string, string>>,
  labels: string[],
  newTask: string,
): Promise<string[]> {
  const checked: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    if (!isDeepStrictEqual(a, b)) {
      throw new Error(`baseline and Taskwise answer ${what} differently: the baseline no longer does the same work\nTaskwise: ${JSON.stringify(a)}\nbaseline: ${JSON.stringify(b)}`);
    }
    checked.push(what);
  };
  same('GET /api/health', await answer(taskwise, '/api/health', undefined), await answer(baseline, '/api/health', undefined));
  for (const label of labels) {
    for (const path of ['/api/users/me', '/api/tasks', '/api/tasks?status=done', '/api/tasks?priority=urgent']) {
      same(`GET ${path} (${label})`, await answer(taskwise, path, cookies.get(taskwise)!.get(label)), await answer(baseline, path, cookies.get(baseline)!.get(label)));
    }
  }
  // Each server creates a task, then edits the one it created: both edits start from equal rows.
  const created = new Map<RunningServer, string>();
  const post = async (server: RunningServer) => {
    const res = await answer(server, '/api/tasks', cookies.get(server)!.get('writer'), { method: 'POST', body: newTask });
    created.set(server, (res.body as { data: { task: { _id: string } } }).data.task._id);
    return stable(res);
  };
  same('POST /api/tasks', await post(taskwise), await post(baseline));
  const patch = async (server: RunningServer) =>
    stable(await answer(server, `/api/tasks/${created.get(server)!}`, cookies.get(server)!.get('writer'), { method: 'PATCH', body: JSON.stringify({ taskTitle: 'Checked by the benchmark', status: 'done' }) }));
  same('PATCH /api/tasks/:id', await patch(taskwise), await patch(baseline));
  return checked;
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<{ section: BenchSection; rows: Row[] }> {
  const s = settings(opts.quick);
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'api');
  const servers: RunningServer[] = [];
  try {
    opts.log(`api/${label}: seeding ${int(s.otherTasks)} other users' tasks…`);
    const data: BoardDataset = await seedBoardDataset(target, {
      otherUsers: s.otherUsers,
      otherTasks: s.otherTasks,
      viewers: [
        { label: 'sees50', visible: 50 },
        { label: 'sees1000', visible: 1000 },
      ],
      writerTasks: 200,
      loginUsers: 100,
    });
    opts.log(`api/${label}: ${int(data.totalTasks)} tasks seeded in ${data.seedSeconds.toFixed(1)} s`);

    // SQLite: the baseline gets its own copy of the seeded file. Two processes writing one SQLite
    // file collide (a round's last in-flight writes overlap the other server's next round, and
    // a read-then-write transaction then fails with SQLITE_BUSY); a single-instance app never
    // shares its file that way. PostgreSQL is shared, as several app instances would share it.
    const baselineUrl = kind === 'sqlite' ? copySqlite(target.url, 'baseline') : target.url;
    const taskwise = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `api-${kind}-taskwise` });
    servers.push(taskwise);
    const baseline = await startBaseline({ databaseUrl: baselineUrl, dir: opts.tmpDir, name: `api-${kind}-baseline` });
    servers.push(baseline);

    // One session per benchmark user on each server, signed in through the API.
    const users = new Map([...data.viewers, ['writer', data.writer] as const]);
    const cookies = new Map<RunningServer, Map<string, string>>();
    for (const server of [taskwise, baseline]) {
      const byUser = new Map<string, string>();
      for (const [name, u] of users) byUser.set(name, await signIn(server.baseUrl, u.email, BENCH_PASSWORD));
      cookies.set(server, byUser);
    }
    const newTask = JSON.stringify({ taskTitle: 'Benchmark task', assignee: data.others[1]!.email, priority: 'high', workTitle: 'Bench' });
    const checked = await checkSameAnswers(taskwise, baseline, cookies, ['sees50', 'sees1000'], newTask);

    const cases: Case[] = [
      { name: 'GET /api/health', as: 'sees50', requests: () => [{ path: '/api/health' }] },
      { name: 'GET /api/users/me', as: 'sees50', requests: (cookie) => [{ path: '/api/users/me', headers: { cookie } }] },
      { name: 'GET /api/tasks (sees 50)', as: 'sees50', requests: (cookie) => [{ path: '/api/tasks', headers: { cookie } }] },
      { name: 'GET /api/tasks (sees 1,000)', as: 'sees1000', requests: (cookie) => [{ path: '/api/tasks', headers: { cookie } }] },
      {
        name: 'POST /api/tasks',
        as: 'writer',
        requests: (cookie) => [{ method: 'POST', path: '/api/tasks', headers: { cookie }, body: newTask }],
      },
      {
        // Each connection toggles its own task's priority, so every request is a real write.
        name: 'PATCH /api/tasks/:id',
        as: 'writer',
        requests: (cookie, c) => {
          const id = data.writerTaskIds[c % data.writerTaskIds.length]!;
          return ['high', 'low'].map((priority) => ({ method: 'PATCH', path: `/api/tasks/${id}`, headers: { cookie }, body: JSON.stringify({ priority }) }));
        },
      },
    ];

    const rows: Row[] = [];
    const load = (server: RunningServer, c: Case, connections: number, duration: number): Promise<LoadResult> => {
      const cookie = cookies.get(server)!.get(c.as)!;
      return runLoad({ baseUrl: server.baseUrl, connections, pid: server.pid, duration, requests: c.requests(cookie, 0), requestsFor: (n: number) => c.requests(cookie, n) });
    };
    for (const c of cases) {
      for (const connections of s.connections) {
        await load(baseline, c, connections, s.warmup);
        await load(taskwise, c, connections, s.warmup);
        // Rounds alternate between the two servers, so both see the same background load.
        const bRounds: LoadResult[] = [];
        const tRounds: LoadResult[] = [];
        for (let round = 0; round < s.rounds; round++) {
          bRounds.push(await load(baseline, c, connections, s.seconds));
          tRounds.push(await load(taskwise, c, connections, s.seconds));
        }
        const b = combineRounds(bRounds);
        const t = combineRounds(tRounds);
        opts.log(`api/${label}: ${c.name} ×${connections}: Taskwise ${int(t.rps)}/s, baseline ${int(b.rps)}/s (${ratio(t, b).toFixed(2)})`);
        rows.push({ call: c.name, connections, taskwise: t, baseline: b });
      }
    }

    // Login: at most 100 attempts per IP per 15 minutes (server/plugins/rate-limit.ts has
    // no configuration knob), counted in the database, so a restart does not reset it. Each
    // case therefore starts from an empty budget (the rate-limit rows deleted) and stays within
    // it: `loginAmount` sign-ins, never a 429. (--quick reuses the running servers: 3 sign-ins so
    // far + 10.) A full run measures each connection count on freshly started processes, Taskwise
    // and baseline alike.
    const budgets = await openSeeder(target);
    for (const connections of s.connections) {
      await budgets.clearRateLimits();
      let server = taskwise;
      if (!opts.quick) {
        if (servers.includes(taskwise)) {
          await taskwise.stop();
          servers.splice(servers.indexOf(taskwise), 1);
        }
        server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `api-${kind}-taskwise-login${connections}` });
        servers.push(server);
      }
      // Each connection signs in as its own account: one account signing in 100 times at once
      // meets the per-address lock-out (10 attempts pending at most), as it should.
      const loginAs = (c: number) => {
        const u = data.loginUsers[c % data.loginUsers.length]!;
        return [{ method: 'POST', path: '/api/users/login', body: JSON.stringify({ email: u.email, password: BENCH_PASSWORD }) }];
      };
      const amount = Math.max(s.loginAmount, connections);
      // Both servers start cold for each login case (the Taskwise one must, for its budget).
      const bServer = opts.quick ? baseline : await startBaseline({ databaseUrl: baselineUrl, dir: opts.tmpDir, name: `api-${kind}-baseline-login${connections}` });
      if (bServer !== baseline) servers.push(bServer);
      const b = await runLoad({ baseUrl: bServer.baseUrl, connections, pid: bServer.pid, requests: loginAs(0), requestsFor: loginAs, amount });
      const t = await runLoad({ baseUrl: server.baseUrl, connections, pid: server.pid, requests: loginAs(0), requestsFor: loginAs, amount });
      if (bServer !== baseline) {
        await bServer.stop();
        servers.splice(servers.indexOf(bServer), 1);
      }
      opts.log(`api/${label}: POST /api/users/login ×${connections}: Taskwise ${t.rps.toFixed(1)}/s, baseline ${b.rps.toFixed(1)}/s`);
      rows.push({ call: `POST /api/users/login (${amount} sign-ins)`, connections, taskwise: t, baseline: b });
      if (server !== taskwise) {
        await server.stop();
        servers.splice(servers.indexOf(server), 1);
      }
    }
    await budgets.close();

    // Where the time goes for each call that misses its target (full runs): a CPU profile of a
    // fresh Taskwise process under the same load, summarized like `node bench/profile.ts`.
    const profiles: string[] = [];
    const missed = rows.filter((r) => r.connections === 10 && RATIO_TARGETS[r.call] !== undefined && ratio(r.taskwise, r.baseline) < RATIO_TARGETS[r.call]!);
    if (!opts.quick && missed.length > 0) {
      for (const server of servers.filter((x) => x.kind === 'taskwise')) {
        await server.stop();
        servers.splice(servers.indexOf(server), 1);
      }
      const profileDir = join(opts.tmpDir, `profiles-${kind}`);
      mkdirSync(profileDir, { recursive: true });
      for (const row of missed) {
        const c = cases.find((x) => x.name === row.call)!;
        const before = new Set(readdirSync(profileDir));
        const profiled = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `api-${kind}-profiled`, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
        servers.push(profiled);
        // Sessions live in the database: the cookies of the first Taskwise process still work.
        const cookie = cookies.get(taskwise)!.get(c.as)!;
        const requestsFor = (n: number) => c.requests(cookie, n);
        await runLoad({ baseUrl: profiled.baseUrl, connections: 10, pid: profiled.pid, duration: 2, requests: requestsFor(0), requestsFor });
        const measured = await runLoad({ baseUrl: profiled.baseUrl, connections: 10, pid: profiled.pid, duration: PROFILE_SECONDS, requests: requestsFor(0), requestsFor });
        await profiled.stop();
        servers.splice(servers.indexOf(profiled), 1);
        const file = readdirSync(profileDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
        if (file === undefined) continue;
        profiles.push(
          `**${row.call}** (${ratio(row.taskwise, row.baseline).toFixed(2)}, wanted ${RATIO_TARGETS[row.call]!.toFixed(2)}): ${int(measured.rps)} req/s under the profiler, server CPU ${measured.cpuPerRequest.toFixed(3)} ms/req; self time of the last ${PROFILE_SECONDS} s`,
          '',
          '```',
          summarize(join(profileDir, file), 15, PROFILE_SECONDS),
          '```',
          '',
        );
        opts.log(`api/${label}: profiled ${row.call}`);
      }
    }

    const markdown = [
      `Database: ${label}, ${int(data.totalTasks)} tasks in the table (${int(s.otherTasks)} of ${int(s.otherUsers)} other users), seeded in ${data.seedSeconds.toFixed(1)} s. ` +
        `Each case: ${s.warmup} s warm-up per server, then ${s.rounds} round${s.rounds === 1 ? '' : 's'} of ${s.seconds} s per server, alternating baseline and Taskwise; ` +
        `req/s is the median round, latencies are over all rounds. Load average after: ${loadAverage()}.`,
      '',
      table(
        ['call', 'conn.', 'Taskwise req/s', 'baseline req/s', 'Taskwise / baseline', 'Taskwise p50 / p99 ms', 'baseline p50 / p99 ms', 'server CPU ms/req Taskwise / baseline', 'errors Taskwise', 'errors baseline', 'RSS Taskwise / baseline MB'],
        rows.map((r) => [
          r.call,
          r.connections,
          r.taskwise.rps >= 100 ? int(r.taskwise.rps) : r.taskwise.rps.toFixed(1),
          r.baseline.rps >= 100 ? int(r.baseline.rps) : r.baseline.rps.toFixed(1),
          ratio(r.taskwise, r.baseline).toFixed(2),
          `${ms(r.taskwise.p50)} / ${ms(r.taskwise.p99)}`,
          `${ms(r.baseline.p50)} / ${ms(r.baseline.p99)}`,
          `${r.taskwise.cpuPerRequest.toFixed(3)} / ${r.baseline.cpuPerRequest.toFixed(3)}`,
          describeErrors(r.taskwise),
          describeErrors(r.baseline),
          `${mb(r.taskwise.rss)} / ${mb(r.baseline.rss)}`,
        ]),
      ),
      '',
      'Server CPU is the server process\'s user + system time per answered request (/proc): it does not count the client, the database server or other work on the machine, so it is the steadier comparison on a shared machine.',
      '',
      `Before measuring, the baseline's answers (status, JSON body, security headers; ids and times aside for writes) were checked to equal Taskwise's for ${checked.length} calls: ${checked.join(', ')}.`,
      ...(profiles.length === 0 ? [] : ['', `**Where the time goes** in the calls that missed their target (Taskwise, ${dbLabel(kind)}, 10 connections, \`node --cpu-prof\`):`, '', ...profiles]),
    ].join('\n');
    return { section: { title: `API over HTTP: Taskwise vs bare baseline, ${label}`, markdown }, rows };
  } finally {
    for (const server of servers) await server.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'api-throughput',
  async run(opts) {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const sections: BenchSection[] = [];
    const targets: TargetResult[] = [];
    for (const kind of kinds) {
      const { section, rows } = await runDatabase(kind, opts);
      for (const row of rows.filter((r) => RATIO_TARGETS[r.call] !== undefined && r.connections === 10)) {
        const value = ratio(row.taskwise, row.baseline);
        const wanted = RATIO_TARGETS[row.call]!;
        targets.push({
          name: `${row.call}, 10 connections, ${dbLabel(kind)}: Taskwise / baseline req/s`,
          target: `>= ${wanted.toFixed(2)}`,
          figure: `${value.toFixed(2)} (${int(row.taskwise.rps)} vs ${int(row.baseline.rps)} req/s; server CPU ${row.taskwise.cpuPerRequest.toFixed(3)} vs ${row.baseline.cpuPerRequest.toFixed(3)} ms/req, ratio ${(row.baseline.cpuPerRequest / row.taskwise.cpuPerRequest).toFixed(2)})`,
          met: value >= wanted,
        });
      }
      const errors = rows.reduce((n, r) => n + r.taskwise.errors, 0);
      targets.push({ name: `API cases, ${dbLabel(kind)}: Taskwise errors (non-2xx + socket)`, target: '0', figure: String(errors), met: errors === 0 });
      sections.push({ ...section, targets });
    }
    if (opts.postgresUrl === undefined) {
      sections.push({ title: 'API over HTTP, PostgreSQL', markdown: 'Skipped: TEST_DATABASE_URL is not set.' });
    }
    // Targets are attached once (to the first section) so the summary lists each once.
    return sections.map((section, i) => (i === 0 ? { ...section, targets } : { title: section.title, markdown: section.markdown }));
  },
};
