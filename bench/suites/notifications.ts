/**
 * Notifications: how fast one reaches the person, and what a full inbox costs.
 * - Delivery: Alice assigns Bob a task; the time from the request's start until Bob's open
 *   stream has `notification.created`, and until Bob's push endpoint (a local HTTP server the
 *   suite starts, standing in for the browser's push service) has the encrypted message — while
 *   a background writer keeps the outbox busy (tasks assigned to Carol: a mail and a
 *   notification each, 20 a second).
 * - The inbox: Bob has 1,000 notifications (the most an account keeps after the hourly sweep),
 *   Carol 10; the first page (20) and the unread page, each as the bell's panel asks for them.
 * Real servers (`node server/server.ts`, logging on), SQLite and PostgreSQL.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStream, type SseStream } from '../../server/test/sse-client.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchPasswordHash, dbLabel, makeTarget, migrate, newId, openSeeder, type DbKind, type UserSeed } from '../lib/db.ts';
import { int, median, ms, table, within } from '../lib/env.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const settings = (quick: boolean) => (quick ? { rounds: 10, inbox: 100, reads: 20, backgroundPerSecond: 5 } : { rounds: 100, inbox: 1000, reads: 200, backgroundPerSecond: 20 });
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** A push service on 127.0.0.1: answers 201 to every message and records when each arrived. */
async function startPushEndpoint(): Promise<{ url: string; next(): Promise<number>; count(): number; forget(): void; server: Server }> {
  const arrivals: number[] = [];
  let waiter: (() => void) | undefined;
  let total = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      total += 1;
      arrivals.push(performance.now());
      waiter?.();
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/push/bench`,
    async next() {
      for (;;) {
        const at = arrivals.shift();
        if (at !== undefined) return at;
        await new Promise<void>((wake) => (waiter = wake));
      }
    },
    count: () => total,
    /** Drops the arrivals not yet taken (before timing starts). */
    forget: () => {
      arrivals.length = 0;
    },
    server,
  };
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

async function assign(server: RunningServer, cookie: string, assignee: string, title: string): Promise<void> {
  const { status } = await call(server, cookie, 'POST', '/api/tasks', { taskTitle: title, assignee });
  if (status !== 201) throw new Error(`POST /api/tasks: ${status}`);
}

/** Times `count` reads of `path`; ms each. */
async function timeReads(server: RunningServer, cookie: string, path: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const { status } = await call(server, cookie, 'GET', path);
    times.push(performance.now() - start);
    if (status !== 200) throw new Error(`GET ${path}: ${status}`);
  }
  return times;
}

async function runCase(kind: DbKind, opts: BenchOptions): Promise<{ rows: string[][]; inbox: string[][]; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, 'notifications');
  const push = await startPushEndpoint();
  let server: RunningServer | undefined;
  let stream: SseStream | undefined;
  let background: Promise<void> | undefined;
  const stop = { now: false };
  try {
    migrate(target);
    const hash = await benchPasswordHash();
    const people: UserSeed[] = ['alice', 'bob', 'carol'].map((name) => ({ id: newId(), email: `${name}@bench.test`, fullName: name[0]!.toUpperCase() + name.slice(1), passwordHash: hash }));
    const seeder = await openSeeder(target);
    await seeder.insertUsers(people);
    const [alice, bob, carol] = await seeder.insertSessions(people);
    await seeder.close();
    if (alice === undefined || bob === undefined || carol === undefined) throw new Error('sessions');
    server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `notifications-${kind}`, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });

    // Bob's browser subscribes (a real P-256 key and auth secret: the server encrypts to them).
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscribed = await call(server, bob, 'POST', '/api/push/subscriptions', {
      endpoint: push.url,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    });
    if (subscribed.status !== 201 && subscribed.status !== 200) throw new Error(`POST /api/push/subscriptions: ${subscribed.status}`);

    // Inboxes: Bob's full (his pushes arrive too), Carol's small.
    const t0 = performance.now();
    for (let i = 0; i < s.inbox; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, s.inbox - i) }, (_, j) => assign(server!, alice, 'bob@bench.test', `Inbox ${i + j}`)));
    }
    // Carol's inbox holds one full page, so both read the same number of rows.
    for (let i = 0; i < 20; i++) await assign(server, alice, 'carol@bench.test', `Small inbox ${i}`);
    await within(
      (async () => {
        while (push.count() < s.inbox) await push.next();
      })(),
      120_000,
      `${s.inbox} pushes`,
    );
    push.forget();
    opts.log(`notifications ${kind}: ${int(s.inbox)} notifications (and their pushes) in ${ms(performance.now() - t0)}`);

    const reads = {
      full: await timeReads(server, bob, '/api/notifications?limit=20', s.reads),
      fullUnread: await timeReads(server, bob, '/api/notifications?limit=20&unread=true', s.reads),
      small: await timeReads(server, carol, '/api/notifications?limit=20', s.reads),
    };

    // Delivery under a busy outbox.
    background = (async () => {
      let i = 0;
      while (!stop.now) {
        const started = performance.now();
        await assign(server, alice, 'carol@bench.test', `Background ${i++}`);
        const wait = 1000 / s.backgroundPerSecond - (performance.now() - started);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    })();
    stream = await openStream(server.baseUrl, bob);
    if (stream.status !== 200) throw new Error(`stream: ${stream.status}`);
    await stream.position();
    const toStream: number[] = [];
    const toPush: number[] = [];
    for (let r = 0; r < s.rounds; r++) {
      const start = performance.now();
      const live = stream.nextOf('notification.created').then(() => performance.now() - start);
      const pushed = push.next().then((at) => at - start);
      await assign(server, alice, 'bob@bench.test', `Live ${r}`);
      toStream.push(await within(live, 30_000, 'notification.created'));
      toPush.push(await within(pushed, 30_000, 'the push'));
    }
    stop.now = true;
    await background;

    const where = dbLabel(kind);
    const rows = [
      [where, 'to the open stream', ms(pct(toStream, 0.5)), ms(pct(toStream, 0.95)), ms(Math.max(...toStream))],
      [where, 'to the push endpoint', ms(pct(toPush, 0.5)), ms(pct(toPush, 0.95)), ms(Math.max(...toPush))],
    ];
    const ratio = median(reads.full) / median(reads.small);
    const inbox = [
      [where, `${int(s.inbox)} stored`, 'first page (20)', ms(median(reads.full)), ms(pct(reads.full, 0.95))],
      [where, `${int(s.inbox)} stored`, 'unread page (20)', ms(median(reads.fullUnread)), ms(pct(reads.fullUnread, 0.95))],
      [where, '20 stored', 'first page (20)', ms(median(reads.small)), ms(pct(reads.small, 0.95))],
    ];
    const targets: TargetResult[] = [
      { name: `notification to an open stream p95, ${where}`, target: '<= 1000 ms', figure: ms(pct(toStream, 0.95)), met: pct(toStream, 0.95) <= 1000 },
      { name: `notification to the push endpoint p95, ${where}`, target: '<= 1000 ms', figure: ms(pct(toPush, 0.95)), met: pct(toPush, 0.95) <= 1000 },
      { name: `inbox page p50 with ${int(s.inbox)} stored / with 20, ${where}`, target: '<= 1.2', figure: ratio.toFixed(2), met: ratio <= 1.2 },
    ];
    return { rows, inbox, targets };
  } finally {
    stop.now = true;
    await background?.catch(() => undefined);
    stream?.close();
    await server?.stop();
    push.server.close();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'notifications',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const rows: string[][] = [];
    const inbox: string[][] = [];
    const targets: TargetResult[] = [];
    for (const kind of kinds) {
      const result = await runCase(kind, opts);
      rows.push(...result.rows);
      inbox.push(...result.inbox);
      targets.push(...result.targets);
    }
    const s = settings(opts.quick);
    const markdown = [
      `Alice assigns Bob a task, ${s.rounds} times, while a background writer assigns Carol ${s.backgroundPerSecond} tasks a second (a mail and a notification each). Time from the request's start:`,
      '',
      table(['database', 'notification', 'p50', 'p95', 'max'], rows),
      '',
      `The bell's panel: \`GET /api/notifications?limit=20\`, ${s.reads} reads each, one after the other.`,
      '',
      table(['database', 'inbox', 'read', 'p50', 'p95'], inbox),
    ].join('\n');
    return [{ title: 'Notifications: delivery and the inbox', markdown, targets }];
  },
};
