/**
 * The calendar feed: what a calendar app's poll costs. One person with 5,000 open tasks that have
 * a deadline (and as many done or undated, which the feed leaves out) reads their feed
 * (`GET /api/calendar/<secret>.ics`, no session), and reads it again with the ETag it got
 * (`If-None-Match`: 304, no tasks read). Real servers (`node server/server.ts`, logging on),
 * SQLite and PostgreSQL; one request at a time, as a calendar app polls.
 */
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchPasswordHash, dbLabel, makeTarget, migrate, newId, openSeeder, TaskFactory, type DbKind, type UserSeed } from '../lib/db.ts';
import { int, median, ms, table } from '../lib/env.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const settings = (quick: boolean) => (quick ? { dated: 500, reads: 20, warmup: 3 } : { dated: 5000, reads: 200, warmup: 20 });
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** Times `count` reads of the feed (after `warmup` untimed ones), each expected to answer `status`; ms each. */
async function timeReads(url: string, headers: Record<string, string>, status: number, count: number, warmup: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (i >= warmup) times.push(performance.now() - start);
    if (res.status !== status) throw new Error(`GET feed: ${res.status}, expected ${status}`);
  }
  return times;
}

async function runCase(kind: DbKind, opts: BenchOptions): Promise<{ rows: string[][]; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const target = await makeTarget(kind, opts, 'calendar');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const person: UserSeed = { id: newId(), email: 'cal@bench.test', fullName: 'Cal', passwordHash: await benchPasswordHash() };
    const seeder = await openSeeder(target);
    await seeder.insertUsers([person]);
    const factory = new TaskFactory(7);
    const soon = Date.now() + 3600_000;
    // Every other task is in the feed: open with a deadline; the rest are done or undated.
    await seeder.insertTasks(s.dated * 2, (i) => {
      const task = factory.task({ createdBy: person.id, assigneeEmail: person.email, status: i % 4 === 1 ? 'done' : 'todo' });
      return { ...task, deadline: i % 4 === 3 ? null : new Date(soon + i * 60_000).toISOString() };
    });
    await seeder.analyze();
    const [cookie] = await seeder.insertSessions([person]);
    await seeder.close();
    if (cookie === undefined) throw new Error('session');
    server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `calendar-${kind}` });

    const made = await fetch(`${server.baseUrl}/api/users/me/calendar`, { headers: { cookie } });
    const { data } = (await made.json()) as { data: { url: string } };
    const feedUrl = `${server.baseUrl}${new URL(data.url).pathname}`;
    const first = await fetch(feedUrl);
    const body = await first.text();
    const events = body.split('BEGIN:VEVENT').length - 1;
    if (events !== s.dated) throw new Error(`the feed has ${events} events, expected ${s.dated}`);
    const etag = first.headers.get('etag') ?? '';
    opts.log(`calendar ${kind}: ${int(events)} events, ${int(body.length)} bytes`);

    const full = await timeReads(feedUrl, {}, 200, s.reads, s.warmup);
    const unchanged = await timeReads(feedUrl, { 'if-none-match': etag }, 304, s.reads, s.warmup);
    const where = dbLabel(kind);
    const rows = [
      [where, `${int(s.dated)} events (${int(Math.round(body.length / 1024))} KB)`, '200', ms(median(full)), ms(pct(full, 0.95))],
      [where, 'If-None-Match', '304', ms(median(unchanged)), ms(pct(unchanged, 0.95))],
    ];
    const targets: TargetResult[] = [
      { name: `calendar feed of ${int(s.dated)} tasks p50, ${where}`, target: '<= 50 ms', figure: ms(median(full)), met: median(full) <= 50 },
      { name: `calendar feed unchanged (304) p50, ${where}`, target: '<= 2 ms', figure: ms(median(unchanged)), met: median(unchanged) <= 2 },
    ];
    return { rows, targets };
  } finally {
    await server?.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'calendar',
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
      `One person with ${int(s.dated)} open tasks with a deadline (and ${int(s.dated)} done or undated ones the feed leaves out); ${s.reads} reads of each kind, one after the other, without a session.`,
      '',
      table(['database', 'feed', 'answer', 'p50', 'p95'], rows),
    ].join('\n');
    return [{ title: 'Calendar feed', markdown, targets }];
  },
};
