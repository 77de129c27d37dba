/**
 * Load and soak: the real server (`node server/server.ts`)
 * under 100 keep-alive connections of mixed traffic — 70 % board reads, 10 % creates, 10 %
 * updates, 10 % sign-ins — for 60 s on SQLite (and PostgreSQL when available), expecting zero
 * 5xx and zero socket errors; then the same mix for 5 minutes on SQLite with the server's RSS
 * sampled every 5 s (start, peak, end, slope: flat or growing; see `rssTrend` for what the trend
 * means). `--quick` shrinks both to a few seconds.
 *
 * Sign-ins are run the way the server allows them legitimately. It allows 100 sign-in attempts
 * per client address per 15 minutes (shared/constants.ts LOGIN_POLICY) and locks an e-mail only
 * after failed attempts. So the server runs behind a trusted proxy (TRUST_PROXY=127.0.0.1, the
 * documented set-up for several clients behind a reverse proxy), every connection is a client
 * with its own X-Forwarded-For address, which it renews after 40 sign-ins (a population of
 * clients, none above the limit), and every sign-in uses the right password. Any 429 is still
 * counted and shown as a 429, never as a success.
 */
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, makeTarget, migrate, openSeeder, TaskFactory, type BenchUser, type DbKind, type DbTarget } from '../lib/db.ts';
import { int, mb, ms, table } from '../lib/env.ts';
import { rssOf, startTaskwise, type RunningServer } from '../lib/servers.ts';

const CONNECTIONS = 100;
const MIX = [
  { kind: 'list', share: 0.7 },
  { kind: 'create', share: 0.1 },
  { kind: 'update', share: 0.1 },
  { kind: 'login', share: 0.1 },
] as const;
type Kind = (typeof MIX)[number]['kind'];
const LOGINS_PER_CLIENT_ADDRESS = 40;
const SEEDED_TASKS_PER_USER = 20;

function settings(quick: boolean) {
  return quick
    ? { mixedSeconds: 3, soakSeconds: 6, sampleEveryMs: 1000, warmupSeconds: 1 }
    : { mixedSeconds: 60, soakSeconds: 300, sampleEveryMs: 5000, warmupSeconds: 60 };
}

/** A leak: RSS rising faster than this, in MB per minute of steady load (at ~650 requests/s, about 50 bytes a request). */
const LEAK_MB_PER_MIN = 2;

export interface RssSample {
  /** Seconds since the soak started. */
  t: number;
  /** Bytes. */
  rss: number;
}

/**
 * The memory trend of a soak, for telling a leak from warm-up. A server's RSS climbs in its
 * first half minute or so under load (V8 grows its heap to the working size, the JIT compiles,
 * SQLite's page cache and the statement caches fill: 134 → 247 MB in the first 30 s of a
 * 3-minute run, then flat) and then saws up and down with every garbage collection. So the
 * samples of the first `warmupSeconds` are left out, and the trend is the least-squares line
 * through all the others: `slopeMbPerMin` is its slope and `marginMbPerMin` twice its standard
 * error (about 95 % confidence), which the sawtooth makes a few MB/min wide over four minutes of
 * 5-s samples. Comparing two single samples instead would measure where each fell in a
 * collection cycle. Growing means the slope is above LEAK_MB_PER_MIN even at the low end of its
 * margin: memory the server keeps per request or per row written, not the noise of collection.
 */
export function rssTrend(samples: readonly RssSample[], warmupSeconds: number) {
  const steady = samples.filter((x) => x.t >= warmupSeconds);
  const series = steady.length >= 3 ? steady : samples;
  const n = series.length;
  const meanT = series.reduce((a, x) => a + x.t, 0) / n;
  const meanR = series.reduce((a, x) => a + x.rss, 0) / n;
  const spread = Math.max(1e-9, series.reduce((a, x) => a + (x.t - meanT) ** 2, 0));
  const slope = series.reduce((a, x) => a + (x.t - meanT) * (x.rss - meanR), 0) / spread;
  const residuals = series.reduce((a, x) => a + (x.rss - (meanR + slope * (x.t - meanT))) ** 2, 0);
  const standardError = n > 2 ? Math.sqrt(residuals / (n - 2) / spread) : 0;
  const perMin = (bytesPerSecond: number) => (bytesPerSecond * 60) / 1024 / 1024;
  const slopeMbPerMin = perMin(slope);
  const marginMbPerMin = perMin(2 * standardError);
  return { first: series[0]!, last: series.at(-1)!, slopeMbPerMin, marginMbPerMin, flat: slopeMbPerMin - marginMbPerMin <= LEAK_MB_PER_MIN };
}

// ---------------------------------------------------------------------------------------------
// Statistics

class KindStats {
  readonly statuses = new Map<number, number>();
  socketErrors = 0;
  readonly errorSamples: string[] = [];
  readonly latencies: number[] = [];

  record(status: number, latencyMs: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.latencies.push(latencyMs);
  }

  socket(error: unknown): void {
    this.socketErrors += 1;
    if (this.errorSamples.length < 3) this.errorSamples.push(String(error));
  }

  count(predicate: (status: number) => boolean): number {
    let n = 0;
    for (const [status, c] of this.statuses) if (predicate(status)) n += c;
    return n;
  }

  percentile(p: number): number {
    if (this.latencies.length === 0) return Number.NaN;
    const sorted = Float64Array.from(this.latencies).sort();
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  }
}

type Stats = Record<Kind, KindStats>;
const newStats = (): Stats => ({ list: new KindStats(), create: new KindStats(), update: new KindStats(), login: new KindStats() });

// ---------------------------------------------------------------------------------------------
// One simulated client per connection

interface Answer {
  status: number;
  body: string;
  setCookie: string | undefined;
}

function send(agent: Agent, baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${baseUrl}${path}`, {
      method,
      agent,
      timeout: 30_000,
      headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const cookie = res.headers['set-cookie']?.find((c) => c.startsWith('taskwise_session='))?.split(';')[0];
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), setCookie: cookie });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

class Client {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  readonly #baseUrl: string;
  readonly #user: BenchUser;
  readonly #index: number;
  readonly #taskIds: string[];
  #cookie = '';
  #logins = 0;
  #generation = 0;
  #sequence = 0;

  constructor(baseUrl: string, user: BenchUser, index: number, taskIds: string[]) {
    this.#baseUrl = baseUrl;
    this.#user = user;
    this.#index = index;
    this.#taskIds = taskIds;
  }

  /** This client's address as the trusted proxy reports it (a new one every 40 sign-ins). */
  #address(): string {
    const n = this.#generation * CONNECTIONS + this.#index;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  async signIn(): Promise<Answer> {
    if (this.#logins > 0 && this.#logins % LOGINS_PER_CLIENT_ADDRESS === 0) this.#generation += 1;
    this.#logins += 1;
    const res = await send(this.#agent, this.#baseUrl, 'POST', '/api/users/login', { 'x-forwarded-for': this.#address() }, { email: this.#user.email, password: this.#user.password });
    if (res.setCookie !== undefined) this.#cookie = res.setCookie;
    return res;
  }

  async step(kind: Kind): Promise<Answer> {
    const headers = { cookie: this.#cookie, 'x-forwarded-for': this.#address() };
    switch (kind) {
      case 'list':
        return send(this.#agent, this.#baseUrl, 'GET', '/api/tasks?limit=50', headers);
      case 'create': {
        const res = await send(this.#agent, this.#baseUrl, 'POST', '/api/tasks', headers, {
          taskTitle: `Load task ${this.#index}-${++this.#sequence}`,
          assignee: `peer${(this.#index + 1) % CONNECTIONS}@bench.test`,
          priority: 'normal',
        });
        if (res.status === 201) this.#taskIds.push((JSON.parse(res.body) as { data: { task: { _id: string } } }).data.task._id);
        return res;
      }
      case 'update': {
        const id = this.#taskIds[Math.floor(Math.random() * this.#taskIds.length)]!;
        const priority = (['low', 'normal', 'high', 'urgent'] as const)[Math.floor(Math.random() * 4)]!;
        return send(this.#agent, this.#baseUrl, 'PATCH', `/api/tasks/${id}`, headers, { priority, status: Math.random() < 0.5 ? 'todo' : 'done' });
      }
      case 'login':
        return this.signIn();
    }
  }

  close(): void {
    this.#agent.destroy();
  }
}

function pick(): Kind {
  let r = Math.random();
  for (const { kind, share } of MIX) {
    if (r < share) return kind;
    r -= share;
  }
  return 'list';
}

/** Every client loops until `seconds` have passed; in-flight requests finish and count. */
async function drive(clients: Client[], seconds: number, stats: Stats): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const kind = pick();
        const t0 = performance.now();
        try {
          const res = await client.step(kind);
          stats[kind].record(res.status, performance.now() - t0);
        } catch (error) {
          stats[kind].socket(error);
          await delay(10);
        }
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------

async function prepare(target: DbTarget, opts: BenchOptions): Promise<{ server: RunningServer; clients: Client[] }> {
  migrate(target);
  const seeder = await openSeeder(target);
  const users: BenchUser[] = [];
  const taskIds: string[][] = [];
  try {
    for (let i = 0; i < CONNECTIONS; i++) users.push(await benchUser(`soak${i}-${target.kind}`));
    await seeder.insertUsers(users);
    const factory = new TaskFactory(7);
    for (let i = 0; i < CONNECTIONS; i++) taskIds.push([]);
    await seeder.insertTasks(CONNECTIONS * SEEDED_TASKS_PER_USER, (n) => {
      const i = n % CONNECTIONS;
      const task = factory.task({ createdBy: users[i]!.id, assigneeEmail: `peer${(i + 1) % CONNECTIONS}@bench.test` });
      taskIds[i]!.push(task.id);
      return task;
    });
    await seeder.analyze();
  } finally {
    await seeder.close();
  }
  const server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `load-soak-${target.kind}`, env: { TRUST_PROXY: '127.0.0.1' } });
  const clients = users.map((u, i) => new Client(server.baseUrl, u, i, taskIds[i]!));
  for (const client of clients) {
    const res = await client.signIn();
    if (res.status !== 200) throw new Error(`sign-in before the load failed: HTTP ${res.status} ${res.body}`);
  }
  return { server, clients };
}

function statsTable(stats: Stats, seconds: number): string {
  const rows = MIX.map(({ kind, share }) => {
    const s = stats[kind];
    const total = s.count(() => true) + s.socketErrors;
    return [
      kind,
      `${Math.round(share * 100)} %`,
      int(total),
      int(s.count((c) => c >= 200 && c < 300)),
      int(s.count((c) => c === 429)),
      int(s.count((c) => c >= 400 && c < 500 && c !== 429)),
      int(s.count((c) => c >= 500)),
      int(s.socketErrors),
      ms(s.percentile(50)),
      ms(s.percentile(99)),
    ];
  });
  const all = Object.values(stats);
  const sum = (f: (s: KindStats) => number) => all.reduce((a, s) => a + f(s), 0);
  const total = sum((s) => s.count(() => true) + s.socketErrors);
  rows.push([
    '**all**',
    '100 %',
    int(total),
    int(sum((s) => s.count((c) => c >= 200 && c < 300))),
    int(sum((s) => s.count((c) => c === 429))),
    int(sum((s) => s.count((c) => c >= 400 && c < 500 && c !== 429))),
    int(sum((s) => s.count((c) => c >= 500))),
    int(sum((s) => s.socketErrors)),
    '',
    '',
  ]);
  const samples = all.flatMap((s) => s.errorSamples);
  return [
    table(['call', 'share', 'requests', '2xx', '429', 'other 4xx', '5xx', 'socket errors', 'p50 ms', 'p99 ms'], rows),
    '',
    `${int(total / seconds)} requests/s over ${seconds.toFixed(1)} s.${samples.length > 0 ? ` Socket errors, e.g.: ${samples.join('; ')}` : ''}`,
  ].join('\n');
}

function zeroTargets(label: string, stats: Stats): TargetResult[] {
  const all = Object.values(stats);
  const fivexx = all.reduce((a, s) => a + s.count((c) => c >= 500), 0);
  const socket = all.reduce((a, s) => a + s.socketErrors, 0);
  return [
    { name: `${label}: 5xx answers`, target: '0', figure: int(fivexx), met: fivexx === 0 },
    { name: `${label}: socket errors`, target: '0', figure: int(socket), met: socket === 0 },
  ];
}

async function mixedLoad(kind: DbKind, opts: BenchOptions, soak: boolean): Promise<BenchSection[]> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, `load-soak-${kind}`);
  let server: RunningServer | undefined;
  let clients: Client[] = [];
  try {
    opts.log(`load-soak/${target.label}: seeding ${CONNECTIONS} users and starting the server…`);
    ({ server, clients } = await prepare(target, opts));
    const label = `${CONNECTIONS} connections × ${s.mixedSeconds} s mixed traffic, ${target.label}`;
    opts.log(`load-soak/${target.label}: ${label}…`);
    const stats = newStats();
    const rssBefore = server.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server?.rss() ?? 0)), 500);
    const seconds = await drive(clients, s.mixedSeconds, stats).finally(() => {
      clearInterval(sampler);
    });
    const sections: BenchSection[] = [
      {
        title: `Load: ${label}`,
        markdown: [
          statsTable(stats, seconds),
          '',
          `Server RSS ${mb(rssBefore)} MB before, peak ${mb(rssPeak)} MB. Sign-ins come from one client address per connection behind a trusted proxy (TRUST_PROXY=127.0.0.1), renewed every ${LOGINS_PER_CLIENT_ADDRESS} sign-ins, so no address exceeds the 100 per 15 minutes limit; a 429 would still be counted as one.`,
        ].join('\n'),
        targets: zeroTargets(label, stats),
      },
    ];
    if (soak) sections.push(await soakPhase(server, clients, s, target.label, opts));
    return sections;
  } finally {
    for (const c of clients) c.close();
    await server?.stop();
    await target.drop();
  }
}

async function soakPhase(server: RunningServer, clients: Client[], s: ReturnType<typeof settings>, dbLabel: string, opts: BenchOptions): Promise<BenchSection> {
  const label = `${CONNECTIONS} connections × ${s.soakSeconds / 60 >= 1 ? `${s.soakSeconds / 60} min` : `${s.soakSeconds} s`} soak, ${dbLabel}`;
  opts.log(`load-soak/${dbLabel}: ${label} (RSS every ${s.sampleEveryMs / 1000} s)…`);
  const stats = newStats();
  const samples: { t: number; rss: number }[] = [];
  const started = performance.now();
  const take = () => samples.push({ t: (performance.now() - started) / 1000, rss: rssOf(server.pid) });
  take();
  const sampler = setInterval(take, s.sampleEveryMs);
  const seconds = await drive(clients, s.soakSeconds, stats).finally(() => {
    clearInterval(sampler);
  });
  take();

  const { first, last, slopeMbPerMin, marginMbPerMin, flat } = rssTrend(samples, s.warmupSeconds);
  const trend = `${slopeMbPerMin.toFixed(2)} ± ${marginMbPerMin.toFixed(2)} MB/min`;
  const peak = Math.max(...samples.map((x) => x.rss));
  const everyMinute = samples.filter((x, i) => i === 0 || i === samples.length - 1 || Math.floor(x.t / 60) !== Math.floor(samples[i - 1]!.t / 60));
  return {
    title: `Soak: ${label}`,
    markdown: [
      table(
        ['RSS at start (after warm-up)', 'peak', 'end', 'trend (95 %)', 'verdict'],
        [[`${mb(first.rss)} MB`, `${mb(peak)} MB`, `${mb(last.rss)} MB`, trend, opts.quick ? 'not judged (quick run)' : flat ? 'flat' : '**growing**']],
      ),
      '',
      `The trend leaves out the first ${s.warmupSeconds} s (warm-up: heap, JIT and caches grow to their working size) and fits a straight line through the RSS samples after it: ` +
        `its slope, ± twice its standard error (the garbage-collection sawtooth). Growing means above ${LEAK_MB_PER_MIN} MB/min even at the low end: memory kept per request, not warm-up or collection timing.`,
      '',
      table(['t (s)', 'RSS (MB)'], (opts.quick ? samples : everyMinute).map((x) => [x.t.toFixed(0), mb(x.rss)])),
      '',
      statsTable(stats, seconds),
    ].join('\n'),
    targets: [
      ...zeroTargets(label, stats),
      // A few seconds say nothing about a trend: a quick run only proves the soak runs.
      {
        name: `${label}: RSS trend after ${s.warmupSeconds} s of warm-up`,
        target: `flat (slope not above ${LEAK_MB_PER_MIN} MB/min at 95 % confidence)`,
        figure: trend,
        met: opts.quick ? null : flat,
      },
    ],
  };
}

export const suite: BenchSuite = {
  name: 'Load and soak',
  async run(opts) {
    const sections = await mixedLoad('sqlite', opts, true);
    if (opts.postgresUrl === undefined) {
      sections.push({ title: `Load: ${CONNECTIONS} connections mixed traffic, PostgreSQL`, markdown: 'Skipped: TEST_DATABASE_URL is not set.' });
    } else {
      sections.push(...(await mixedLoad('postgres', opts, false)));
    }
    return sections;
  },
};
