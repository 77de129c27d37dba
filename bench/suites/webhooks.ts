/**
 * Webhook fan-out: a board with 10 webhooks — 9 healthy receivers (local HTTP servers this suite
 * starts, answering 204) and 1 that refuses connections (nothing listens on its port) — under a
 * steady 100 task writes a second. Measured: the time from a write's request start until each
 * healthy receiver has its `task.created`, and the writes' throughput and latency compared with
 * the same load on a board without webhooks. Real servers (`node server/server.ts`), SQLite and
 * PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchPasswordHash, dbLabel, makeTarget, migrate, newId, openSeeder, type DbKind, type UserSeed } from '../lib/db.ts';
import { ms, table } from '../lib/env.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const settings = (quick: boolean) => (quick ? { seconds: 3, perSecond: 100, healthy: 9 } : { seconds: 30, perSecond: 100, healthy: 9 });
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** A receiver on 127.0.0.1: answers 204 and records when each task's `task.created` arrived. */
async function startReceiver(): Promise<{ url: string; arrivals: Map<string, number>; server: Server }> {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { task?: { taskTitle?: string } } };
      const title = body.data?.task?.taskTitle;
      if (title !== undefined && !arrivals.has(title)) arrivals.set(title, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, server };
}

/** A port nothing listens on (bound, then closed): connections to it are refused. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  return `http://127.0.0.1:${port}/down`;
}

async function call(server: RunningServer, cookie: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** `perSecond` task creations a second for `seconds` (open loop: each starts on schedule); their start times by title, latencies, and the achieved rate. */
async function load(server: RunningServer, cookie: string, boardId: string, assignee: string, prefix: string, perSecond: number, seconds: number) {
  const starts = new Map<string, number>();
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const total = perSecond * seconds;
  const begin = performance.now();
  let failures = 0;
  for (let i = 0; i < total; i++) {
    const due = begin + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const title = `${prefix} ${i}`;
    const start = performance.now();
    starts.set(title, start);
    pending.push(
      call(server, cookie, 'POST', '/api/tasks', { taskTitle: title, assignee, boardId }).then(({ status }) => {
        if (status !== 201) failures += 1;
        latencies.push(performance.now() - start);
      }),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - begin) / 1000;
  if (failures > 0) throw new Error(`${failures} task writes failed`);
  return { starts, latencies, rate: total / elapsed };
}

async function runCase(kind: DbKind, opts: BenchOptions): Promise<{ rows: string[][]; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, 'webhooks');
  const receivers = await Promise.all(Array.from({ length: s.healthy }, () => startReceiver()));
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const alice: UserSeed = { id: newId(), email: 'alice@bench.test', fullName: 'Alice', passwordHash: await benchPasswordHash() };
    const seeder = await openSeeder(target);
    await seeder.insertUsers([alice]);
    const plainBoard = newId();
    const hookedBoard = newId();
    await seeder.insertBoard(plainBoard, 'Without webhooks', [alice]);
    await seeder.insertBoard(hookedBoard, 'With webhooks', [alice]);
    const [cookie] = await seeder.insertSessions([alice]);
    await seeder.close();
    if (cookie === undefined) throw new Error('session');
    server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `webhooks-${kind}`, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
    for (const url of [...receivers.map((r) => r.url), await refusedUrl()]) {
      const { status } = await call(server, cookie, 'POST', `/api/boards/${hookedBoard}/webhooks`, { url, events: ['task.created'] });
      if (status !== 201) throw new Error(`POST webhooks: ${status}`);
    }
    // Warm-up: connections, statement caches.
    await load(server, cookie, plainBoard, alice.email, 'warm', s.perSecond, 1);

    const without = await load(server, cookie, plainBoard, alice.email, 'plain', s.perSecond, s.seconds);
    const withHooks = await load(server, cookie, hookedBoard, alice.email, 'hooked', s.perSecond, s.seconds);
    // Every healthy receiver gets every write (or the case fails after 60 s).
    const deadline = performance.now() + 60_000;
    while (receivers.some((r) => [...withHooks.starts.keys()].some((title) => !r.arrivals.has(title)))) {
      if (performance.now() > deadline) throw new Error('webhook deliveries missing after 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const delays: number[] = [];
    for (const r of receivers) for (const [title, start] of withHooks.starts) delays.push((r.arrivals.get(title) ?? start) - start);

    const where = dbLabel(kind);
    const ratio = withHooks.rate / without.rate;
    const rows = [
      [where, 'no webhooks', without.rate.toFixed(1), ms(pct(without.latencies, 0.5)), ms(pct(without.latencies, 0.95)), '—', '—'],
      [where, '10 webhooks (1 refusing)', withHooks.rate.toFixed(1), ms(pct(withHooks.latencies, 0.5)), ms(pct(withHooks.latencies, 0.95)), ms(pct(delays, 0.5)), ms(pct(delays, 0.95))],
    ];
    const p95 = pct(delays, 0.95);
    const targets: TargetResult[] = [
      { name: `write to each healthy receiver p95, 10 webhooks, ${s.perSecond} writes/s, ${where}`, target: '<= 2000 ms', figure: ms(p95), met: p95 <= 2000 },
      { name: `write throughput with 10 webhooks / without, ${where}`, target: '>= 0.90', figure: ratio.toFixed(2), met: ratio >= 0.9 },
    ];
    opts.log(`webhooks ${kind}: ${withHooks.starts.size} writes × ${s.healthy} receivers, p95 ${ms(p95)}, throughput ratio ${ratio.toFixed(2)}`);
    return { rows, targets };
  } finally {
    await server?.stop();
    for (const r of receivers) r.server.close();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'webhooks',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const rows: string[][] = [];
    const targets: TargetResult[] = [];
    for (const kind of kinds) {
      const result = await runCase(kind, opts);
      rows.push(...result.rows);
      targets.push(...result.targets);
    }
    const s = settings(opts.quick);
    const markdown = [
      `${s.perSecond} task creations a second for ${s.seconds} s (open loop) on a board without webhooks, then on one with 10 (${s.healthy} local receivers answering 204, 1 URL whose port refuses connections, retried with back-off). Delivery: from the write's request start until each healthy receiver has the event.`,
      '',
      table(['database', 'board', 'writes/s', 'write p50', 'write p95', 'delivery p50', 'delivery p95'], rows),
    ].join('\n');
    return [{ title: 'Webhooks: fan-out under load', markdown, targets }];
  },
};
