/**
 * Live events: many open streams (users × tabs) on real servers (`node server/server.ts`), a
 * change visible to 10 of them (creator and assignee, 5 tabs each), delivery latency from the
 * write's start to each stream's receipt; the same with the streams on a second instance
 * (PostgreSQL); RSS per idle stream; POST /api/tasks req/s with and without the streams.
 * Fan-out: a shared board of 1,000 members, each with one open stream; a change of one of its
 * tasks (PATCH) and the delay until every member's stream has it.
 */
import { createServer, request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_FRAME } from '../../server/events/sse.ts';
import { createStreamRegistry, type Stream } from '../../server/events/streams.ts';
import { openStream, type SseStream } from '../../server/test/sse-client.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchPasswordHash, BENCH_PASSWORD, dbLabel, makeTarget, migrate, newId, NO_LOGIN_HASH, openSeeder, type DbKind } from '../lib/db.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import { int, ms, table, within } from '../lib/env.ts';

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

/** One open stream of the fan-out case, read as lightly as possible. */
interface LightStream {
  /** When (performance.now()) the next `type` event arrived, skipping other events. */
  nextOf(type: string): Promise<number>;
  close(): void;
}

/**
 * Opens `GET /api/events` with node:http and resolves once the stream has sent its position.
 * Frames are split on blank lines and only their `event:` name is read: with 1,000 streams in
 * the benchmark's one process, the web-streams reader of server/test/sse-client.ts would cost
 * more per event than the server's fan-out being measured.
 */
function lightStream(baseUrl: string, cookie: string): Promise<LightStream> {
  return new Promise((resolve, reject) => {
    const arrivals: { type: string; at: number }[] = [];
    let waiter: (() => void) | undefined;
    let ended = false;
    const req = httpRequest(`${baseUrl}/api/events`, { headers: { accept: 'text/event-stream', cookie } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`stream: ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      let opened = false;
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          if (type !== undefined) arrivals.push({ type, at });
          if (!opened && /^id: /m.test(frame)) {
            opened = true;
            resolve(stream);
          }
        }
        waiter?.();
      });
      res.on('close', () => {
        ended = true;
        waiter?.();
      });
    });
    const stream: LightStream = {
      async nextOf(type) {
        for (;;) {
          const arrival = arrivals.shift();
          if (arrival?.type === type) return arrival.at;
          if (arrival !== undefined) continue;
          if (ended) throw new Error('The stream ended');
          await new Promise<void>((wake) => (waiter = wake));
        }
      },
      close: () => req.destroy(),
    };
    req.on('error', reject);
    req.end();
  });
}

/**
 * The instance's own share of a fan-out, apart from the database, the network and the readers:
 * the stream registry of server/events/streams.ts with `count` live streams on real sockets
 * (served and read in this process), and the time `dispatch` takes to write one board event
 * to all of them (it writes synchronously), per event over `events` events after 5 of warm-up.
 */
async function dispatchTimes(count: number, events: number): Promise<number[]> {
  const registry = createStreamRegistry();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(RETRY_FRAME);
    const i = Number(new URL(req.url ?? '/', 'http://bench').searchParams.get('i'));
    const stream: Stream = { raw: res, email: `m${i}@bench.test`, userId: `u${i}`, language: 'en', sessionId: `s${i}`, lastId: 0, boards: new Set(['board']), pending: [], started: true, closed: false, end: () => res.end() };
    registry.register(stream);
    registry.goLive(stream);
    res.on('close', () => {
      registry.unregister(stream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clients = await Promise.all(
    Array.from({ length: count }, (_, i) => new Promise<ClientRequest>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/?i=${i}` }, (res) => {
        res.resume();
        resolve(req);
      });
      req.end();
    })),
  );
  while (registry.open < count) await new Promise((resolve) => setTimeout(resolve, 10));
  const task = { _id: newId(), workTitle: '', taskTitle: 'A task on a big board', assignee: 'm0@bench.test', description: 'x'.repeat(200), version: 2 };
  const payload = JSON.stringify({ task, by: { fullName: 'Member 0', email: 'm0@bench.test' } });
  const times: number[] = [];
  for (let id = 1; id <= events + 5; id++) {
    const start = performance.now();
    registry.dispatch({ id, type: 'task.updated', boardId: 'board', audience: ['m0@bench.test'], fromBoardId: null, fromAudience: null, payload });
    if (id > 5) times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const req of clients) req.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return times;
}

/** The fan-out target: a change on a board of this many members reaches all their open streams within FANOUT_P95_MS (p95). */
const FANOUT_P95_MS = 250;

/**
 * One shared board with `members` members (sessions and board written straight into the
 * database), one open stream each on the last instance; `rounds` PATCHes of one of the board's
 * tasks through the first instance, one after another; the delay from each PATCH's start to
 * each stream's receipt of its `task.updated`.
 */
async function runFanout(kind: DbKind, instances: 1 | 2, opts: BenchOptions): Promise<{ rows: string[][]; targets: TargetResult[] }> {
  const members = opts.quick ? 200 : 1000;
  const rounds = opts.quick ? 5 : 20;
  const target = await makeTarget(kind, opts, `fanout${instances}`);
  const servers: RunningServer[] = [];
  const streams: LightStream[] = [];
  try {
    migrate(target);
    const users = Array.from({ length: members }, (_, i) => ({ id: newId(), email: `member${i}@bench.test`, fullName: `Member ${i}`, passwordHash: NO_LOGIN_HASH }));
    const boardId = newId();
    const taskId = newId();
    const now = new Date().toISOString();
    const seeder = await openSeeder(target);
    await seeder.insertUsers(users);
    await seeder.insertBoard(boardId, 'Everyone', users);
    const cookies = await seeder.insertSessions(users);
    const writer = users[0]!;
    await seeder.insertTasks(1, () => ({ id: taskId, workTitle: '', taskTitle: 'Shared', assigneeEmail: writer.email, createdBy: writer.id, deadline: null, priority: 'normal', status: 'todo', description: '', createdAt: now, updatedAt: now, boardId }));
    await seeder.close();
    for (let i = 0; i < instances; i++) servers.push(await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `fanout-${kind}-${instances}-${i}`, env: {} }));
    const front = servers[0]!;
    const reader = servers[instances - 1]!;
    // Opened 25 at a time (a page that opens its stream is one request like any other).
    for (let i = 0; i < cookies.length; i += 25) {
      streams.push(...(await within(Promise.all(cookies.slice(i, i + 25).map((cookie) => lightStream(reader.baseUrl, cookie))), 60_000, 'opening 25 streams')));
    }
    const latencies: number[] = [];
    const lastArrivals: number[] = [];
    const answers: number[] = [];
    // The first changes after start-up compile the code paths: two of them are not counted.
    for (let r = -2; r < rounds; r++) {
      const start = performance.now();
      const arrived = streams.map((x) => x.nextOf('task.updated').then((at) => at - start));
      const res = await fetch(`${front.baseUrl}/api/tasks/${taskId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie: cookies[0]! },
        body: JSON.stringify({ taskTitle: `Shared, change ${r}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PATCH /api/tasks/:id: ${res.status}`);
      const answered = performance.now() - start;
      const got = await within(Promise.all(arrived), 60_000, `task.updated on ${int(streams.length)} streams`);
      if (r < 0) continue;
      answers.push(answered);
      latencies.push(...got);
      lastArrivals.push(Math.max(...got));
    }
    const where = `${dbLabel(kind)}, ${instances === 1 ? 'one instance' : 'streams on a second instance'}`;
    const p95 = pct(latencies, 0.95);
    return {
      rows: [[where, `${int(members)} members, one stream each; ${rounds} changes`, ms(pct(answers, 0.5)), ms(pct(latencies, 0.5)), ms(p95), ms(pct(lastArrivals, 0.5)), ms(Math.max(...latencies))]],
      targets: [{ name: `events fan-out p95, board of ${int(members)} members, ${where}`, target: `<= ${FANOUT_P95_MS} ms`, figure: ms(p95), met: p95 <= FANOUT_P95_MS }],
    };
  } finally {
    for (const x of streams) x.close();
    for (const server of servers) await server.stop();
    await target.drop();
  }
}

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
    const fanoutRows: string[][] = [];
    const fanoutTargets: TargetResult[] = [];
    for (const [kind, instances] of cases) {
      opts.log(`events fan-out: ${kind}, ${instances} instance(s)`);
      const result = await runFanout(kind, instances, opts);
      fanoutRows.push(...result.rows);
      fanoutTargets.push(...result.targets);
    }
    const members = opts.quick ? 200 : 1000;
    opts.log(`events fan-out: the registry's dispatch to ${members} streams`);
    const dispatch = await dispatchTimes(members, opts.quick ? 10 : 50);
    const section: BenchSection = {
      title: 'Live events (server-sent events fan-out)',
      markdown: [
        table(['case', 'streams and changes', 'delivery p50', 'p95', 'max', 'RSS per idle stream', 'POST /api/tasks req/s without → with streams'], rows),
        'A change on a shared board: every member has one open stream (all read by the benchmark\'s one process); delay from the start of the PATCH to its answer (median) and to each stream (p50, p95, max over all deliveries; "all reached" is the median over changes of the last stream\'s delay).',
        table(['case', 'board and changes', 'PATCH answered', 'delivery p50', 'p95', 'all reached (median)', 'max'], fanoutRows),
        `The instance's own share (server/events/streams.ts \`dispatch\`, ${int(members)} live streams on real sockets, in one process, ${dispatch.length} events): p50 ${ms(pct(dispatch, 0.5))} ms, p95 ${ms(pct(dispatch, 0.95))} ms, max ${ms(Math.max(...dispatch))} ms per event to all of them.`,
      ].join('\n\n'),
      targets: [...targets, ...fanoutTargets],
    };
    return [section];
  },
};
