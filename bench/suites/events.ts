/**
 * Live events: many open streams (users × tabs) on real servers (`node server/server.ts`), a
 * change visible to 10 of them (creator and assignee, 5 tabs each), delivery latency from the
 * write's start to each stream's receipt; the same with the streams on a second instance
 * (PostgreSQL); RSS per idle stream; POST /api/tasks req/s with and without the streams.
 */
import { openStream, type SseStream } from '../../server/test/sse-client.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchPasswordHash, BENCH_PASSWORD, dbLabel, makeTarget, migrate, newId, openSeeder, type DbKind } from '../lib/db.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import { int, ms, table } from '../lib/env.ts';

const settings = (quick: boolean) => (quick ? { users: 10, tabs: 2, rounds: 5, writeMs: 1000 } : { users: 200, tabs: 5, rounds: 50, writeMs: 5000 });
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/**
 * Signs in user number `i`. The servers run behind a trusted proxy (TRUST_PROXY=127.0.0.1) and
 * every 50 sign-ins come from another client address, so the 100 sign-ins per address per
 * 15 minutes limit is not reached (as in load-soak.ts).
 */
async function login(server: RunningServer, email: string, i: number): Promise<string> {
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${Math.floor(i / 50) % 256}.1` };
  const res = await fetch(`${server.baseUrl}/api/users/login`, { method: 'POST', headers, body: JSON.stringify({ email, password: BENCH_PASSWORD }) });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** `promise`, or a clear failure after `ms` (a stream that never starts would hang the run). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
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

const createTask = (server: RunningServer, cookie: string, assignee: string, title: string) =>
  fetch(`${server.baseUrl}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ taskTitle: title, assignee }) }).then(async (r) => {
    await r.arrayBuffer();
    if (r.status !== 201) throw new Error(`POST /api/tasks: ${r.status}`);
  });

/** POST /api/tasks with 10 concurrent clients for `durationMs`: requests per second. */
async function writeRate(server: RunningServer, cookie: string, durationMs: number): Promise<number> {
  let done = 0;
  const end = performance.now() + durationMs;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < end) {
        await createTask(server, cookie, 'nobody@bench.test', `Write ${done}`);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

async function runCase(kind: DbKind, instances: 1 | 2, opts: BenchOptions): Promise<{ rows: string[][]; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, `events${instances}`);
  const servers: RunningServer[] = [];
  const streams: SseStream[] = [];
  try {
    migrate(target);
    const hash = await benchPasswordHash();
    const users = Array.from({ length: s.users }, (_, i) => ({ id: newId(), email: `live${i}@bench.test`, fullName: `Live ${i}`, passwordHash: hash }));
    const seeder = await openSeeder(target);
    await seeder.insertUsers(users);
    await seeder.close();
    for (let i = 0; i < instances; i++) servers.push(await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `events-${kind}-${instances}-${i}`, env: { TRUST_PROXY: '127.0.0.1' } }));
    const writer = servers[0]!;
    const reader = servers[instances - 1]!;
    const cookies: string[] = [];
    for (const [i, u] of users.entries()) cookies.push(await login(writer, u.email, i));
    const rate0 = await writeRate(writer, cookies[0]!, s.writeMs);
    const rssBefore = reader.rss();
    const byUser: SseStream[][] = users.map(() => []);
    for (let t = 0; t < s.tabs; t++) {
      for (let i = 0; i < users.length; i++) {
        const stream = await openStream(reader.baseUrl, cookies[i]);
        if (stream.status !== 200) throw new Error(`stream: ${stream.status}`);
        streams.push(stream);
        byUser[i]!.push(stream);
      }
    }
    await within(Promise.all(streams.map((x) => x.position())), 60_000, `the opening event (id:) of ${int(streams.length)} streams`);
    const perStream = (reader.rss() - rssBefore) / streams.length;
    const latencies: number[] = [];
    for (let r = 0; r < s.rounds; r++) {
      const a = (2 * r) % users.length;
      const b = (2 * r + 1) % users.length;
      const watching = [...byUser[a]!, ...byUser[b]!];
      const start = performance.now();
      const arrived = watching.map((x) => x.nextOf('task.created').then(() => performance.now() - start));
      await createTask(writer, cookies[a]!, users[b]!.email, `Live ${r}`);
      latencies.push(...(await within(Promise.all(arrived), 60_000, `task.created on ${watching.length} streams`)));
    }
    const rate1 = await writeRate(writer, cookies[0]!, s.writeMs);
    const where = `${dbLabel(kind)}, ${instances === 1 ? 'one instance' : 'streams on a second instance'}`;
    const p95 = pct(latencies, 0.95);
    const limit = instances === 1 ? 100 : 250;
    const rows = [
      [where, `${int(streams.length)} streams, ${s.rounds} changes × ${watching(s)}`, ms(pct(latencies, 0.5)), ms(p95), ms(Math.max(...latencies)), `${int(perStream / 1024)} KB`, `${int(rate0)} → ${int(rate1)}`],
    ];
    const targets: TargetResult[] = [{ name: `events delivery p95, ${where}`, target: `<= ${limit} ms`, figure: ms(p95), met: p95 <= limit }];
    if (instances === 1) {
      targets.push({ name: `events RSS per idle stream, ${dbLabel(kind)}`, target: '<= 64 KB', figure: `${int(perStream / 1024)} KB`, met: perStream <= 64 * 1024 });
      targets.push({ name: `POST /api/tasks with streams / without, ${dbLabel(kind)}`, target: '>= 0.8', figure: (rate1 / rate0).toFixed(2), met: rate1 / rate0 >= 0.8 });
    }
    return { rows, targets };
  } finally {
    for (const x of streams) x.close();
    for (const server of servers) await server.stop();
    await target.drop();
  }
}
const watching = (s: { tabs: number }) => `${2 * s.tabs} streams`;

export const suite: BenchSuite = {
  name: 'events',
  async run(opts) {
    const rows: string[][] = [];
    const targets: TargetResult[] = [];
    const cases: [DbKind, 1 | 2][] = [['sqlite', 1]];
    if (opts.postgresUrl !== undefined) cases.push(['postgres', 1], ['postgres', 2]);
    for (const [kind, instances] of cases) {
      opts.log(`events: ${kind}, ${instances} instance(s)`);
      const result = await runCase(kind, instances, opts);
      rows.push(...result.rows);
      targets.push(...result.targets);
    }
    const section: BenchSection = {
      title: 'Live events (server-sent events fan-out)',
      markdown: table(['case', 'streams and changes', 'delivery p50', 'p95', 'max', 'RSS per idle stream', 'POST /api/tasks req/s without → with streams'], rows),
      targets,
    };
    return [section];
  },
};
