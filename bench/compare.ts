/**
 * `node bench/compare.ts [--db=sqlite|postgres] [--case=get50,me,health,post,postdl,patch] [--rounds=4] [--seconds=3] [--old=/path/to/tree[,…]] [--servers=baseline,taskwise]`
 *
 * Side by side in the same minutes: the bare baseline, this tree's Taskwise and, with `--old`, the
 * Taskwise of other checkouts (e.g. `git archive <commit> | tar -x -C /tmp/old` with a
 * `node_modules` link), each on its own copy of one seeded data set (the API benchmark's: 100,000
 * other tasks, a user who sees 50 and one who sees 1,000, a writer with 200 tasks), 10
 * connections, rounds alternating between the servers so they share the machine's background
 * load. Prints req/s (÷ the first server's) and the median server CPU per request of the rounds,
 * the steadier figure on a shared machine. Cases: GET /api/tasks as the user who sees 50
 * (`get50`), GET /api/users/me, GET /api/health, POST /api/tasks as the API benchmark sends it
 * (`post`) and with a deadline (`postdl`), PATCH toggling a priority (`patch`).
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../scripts/lib/processes.ts';
import { BENCH_PASSWORD, makeTarget, type DbKind } from './lib/db.ts';
import { seedBoardDataset } from './lib/datasets.ts';
import { benchRoot, loadAverage, repoRoot } from './lib/env.ts';
import { combineRounds, runLoad, signIn, type LoadRequest, type LoadResult } from './lib/load.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

interface Server {
  name: string;
  url: string;
  pid: number;
  cookies: Map<string, string>;
}

async function main(): Promise<void> {
  const kind = arg('db', 'sqlite') as DbKind;
  const cases = arg('case', 'get50').split(',');
  const rounds = Number(arg('rounds', '4'));
  const seconds = Number(arg('seconds', '3'));
  const olds = arg('old', '') === '' ? [] : arg('old', '').split(',');
  const tmpDir = join(benchRoot, '.tmp', `compare-${process.pid}`);
  mkdirSync(tmpDir, { recursive: true });
  const target = await makeTarget(kind, { tmpDir, postgresUrl: process.env.TEST_DATABASE_URL }, 'compare');
  const processes: ServerProcess[] = [];
  try {
    const data = await seedBoardDataset(target, {
      otherUsers: 1000,
      otherTasks: 100_000,
      viewers: [
        { label: 'sees50', visible: 50 },
        { label: 'sees1000', visible: 1000 },
      ],
      writerTasks: 200,
    });
    // As the benchmark runs servers: logging at its defaults, whatever this shell has set.
    const { LOG_LEVEL: _level, LOG_FORMAT: _format, NODE_ENV: _env, ...inherited } = process.env;
    const specs = [
      ...arg('servers', 'baseline,taskwise')
        .split(',')
        .map((name) => ({ name, cwd: repoRoot, script: name === 'baseline' ? 'bench/baseline-server.ts' : 'server/server.ts' })),
      ...olds.map((cwd, i) => ({ name: `old${i}`, cwd, script: 'server/server.ts' })),
    ];
    const servers: Server[] = [];
    for (const [i, spec] of specs.entries()) {
      let url = target.url;
      if (kind === 'sqlite') {
        // One file per server: two processes writing one SQLite file would collide.
        const copy = target.url.slice('file:'.length).replace(/\.db$/, `-${i}.db`);
        copyFileSync(target.url.slice('file:'.length), copy);
        url = `file:${copy}`;
      }
      const started = await startServerProcess({
        script: spec.script,
        cwd: spec.cwd,
        baseEnv: inherited,
        logFile: join(tmpDir, `${spec.name}.log`),
        env: { DATABASE_URL: url, SESSION_SECRET: randomBytes(32).toString('hex') },
      });
      processes.push(started);
      const cookies = new Map<string, string>();
      cookies.set('sees50', await signIn(started.url, data.viewers.get('sees50')!.email, BENCH_PASSWORD));
      cookies.set('writer', await signIn(started.url, data.writer.email, BENCH_PASSWORD));
      servers.push({ name: spec.name, url: started.url, pid: started.process.pid ?? 0, cookies });
    }
    const task = { taskTitle: 'Benchmark task', assignee: data.others[1]!.email, priority: 'high', workTitle: 'Bench' };
    const bodies = { post: JSON.stringify(task), postdl: JSON.stringify({ ...task, deadline: '2030-01-15T10:00:00.000Z' }) };
    const requestsOf =
      (name: string, cookies: Map<string, string>) =>
      (connection: number): LoadRequest[] => {
        const reader = { cookie: cookies.get('sees50')! };
        const writer = { cookie: cookies.get('writer')! };
        if (name === 'health') return [{ path: '/api/health' }];
        if (name === 'me') return [{ path: '/api/users/me', headers: reader }];
        if (name === 'get50') return [{ path: '/api/tasks', headers: reader }];
        if (name === 'post' || name === 'postdl') return [{ method: 'POST', path: '/api/tasks', headers: writer, body: bodies[name] }];
        if (name !== 'patch') throw new Error(`--case: unknown case ${name}`);
        const id = data.writerTaskIds[connection % data.writerTaskIds.length]!;
        return ['high', 'low'].map((priority) => ({ method: 'PATCH', path: `/api/tasks/${id}`, headers: writer, body: JSON.stringify({ priority }) }));
      };
    for (const name of cases) {
      const load = (s: Server, duration: number) => {
        const requestsFor = requestsOf(name, s.cookies);
        return runLoad({ baseUrl: s.url, connections: 10, pid: s.pid, duration, requests: requestsFor(0), requestsFor });
      };
      for (const s of servers) await load(s, 1);
      const before = loadAverage();
      const results = new Map<string, LoadResult[]>(servers.map((s) => [s.name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const s of servers) results.get(s.name)!.push(await load(s, seconds));
      }
      const first = combineRounds(results.get(servers[0]!.name)!);
      const figures = servers.map((s) => {
        const all = results.get(s.name)!;
        const combined = combineRounds(all);
        const cpu = all.map((r) => r.cpuPerRequest).sort((a, b) => a - b)[all.length >> 1]!;
        return `${s.name} ${Math.round(combined.rps)}/s (${(combined.rps / first.rps).toFixed(2)}), CPU ${cpu.toFixed(3)} ms/req${combined.errors > 0 ? `, ${combined.errors} errors` : ''}`;
      });
      process.stdout.write(`${kind} ${name}: ${figures.join(' | ')}; load average ${before} → ${loadAverage()}\n`);
    }
  } finally {
    for (const p of processes) await p.stop('SIGTERM', 15_000);
    await target.drop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
