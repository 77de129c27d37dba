import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../db/prepared.ts';
import { appendEvent, createEventsRepository, type EventTransaction, type NewEvent } from '../repositories/events-repository.ts';
import { useTestApp, isPostgres } from './helpers.ts';
import { admin, http, scratchDatabase, seedUser, startServer, type ChildServer, type ScratchDatabase } from './security/child-server.ts';
import { openStream } from './sse-client.ts';

/**
 * Several instances on one database (real server processes). PostgreSQL only: the ordering of
 * the event log under concurrent writers, and events crossing instances through LISTEN/NOTIFY,
 * including a listener connection killed mid-stream. On both databases: a stream ends with its
 * session when another instance ends it.
 */
const t = useTestApp();

const event = (n: number): NewEvent => ({
  type: 'task.updated',
  subjectId: `race-${n}`,
  audience: ['nobody@example.test'],
  data: { n },
  at: t.clock.now().toISOString(),
});

/**
 * These tests hold two transactions open at once to order their commits by hand, which the
 * callback of `events.transaction` cannot do; they call appendEvent on them directly.
 */
const asEventTransaction = (trx: Executor) => trx as EventTransaction;

/** Resolves once the backend `pid` waits for a lock. */
async function waitingOnLock(pid: number): Promise<void> {
  const waiting = async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where pid = ${pid} and not granted`.execute(t.app.db);
    return rows[0]?.n ?? 0;
  };
  await expect.poll(waiting, { message: `backend ${pid} waits for a lock`, timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
}

describe.runIf(isPostgres)('event log ordering (PostgreSQL)', () => {
  it('control: with a bare sequence, a larger id can commit first, so "id > last" would skip the smaller one', async () => {
    const db = t.app.db;
    await sql`create table if not exists race (id bigint generated always as identity primary key, n int)`.execute(db);
    const t1 = await db.startTransaction().execute();
    const t2 = await db.startTransaction().execute();
    const small = (await sql<{ id: string }>`insert into race (n) values (1) returning id`.execute(t1)).rows[0]?.id;
    const large = (await sql<{ id: string }>`insert into race (n) values (2) returning id`.execute(t2)).rows[0]?.id;
    await t2.commit().execute();
    // A reader now sees the larger id without the smaller one: it would move its cursor past it.
    const seen = await sql<{ id: string }>`select id from race order by id`.execute(db);
    await t1.commit().execute();
    expect(Number(large)).toBeGreaterThan(Number(small));
    expect(seen.rows.map((r) => r.id)).not.toContain(small);
  });

  it('appendEvent: a second writer draws its id only after the first commits, so the reader never skips', async () => {
    const db = t.app.db;
    const log = createEventsRepository(db);
    const start = (await log.bounds()).max;
    const t1 = await db.startTransaction().execute();
    const t2 = await db.startTransaction().execute();
    const pid2 = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t2)).rows[0]?.pid ?? 0;
    const id1 = await appendEvent(asEventTransaction(t1), event(1));
    const second = appendEvent(asEventTransaction(t2), event(2));
    // The second writer is held at the append (the advisory lock) while the first is open, so it
    // cannot commit a larger id first.
    await waitingOnLock(pid2);
    expect(await log.listAfter(start, 10)).toEqual([]);
    await t1.commit().execute();
    const id2 = await second;
    expect(id2).toBeGreaterThan(id1);
    // The reader sees the smaller id first, then the larger one once it commits.
    expect((await log.listAfter(start, 10)).map((e) => e.id)).toEqual([id1]);
    await t2.commit().execute();
    expect((await log.listAfter(start, 10)).map((e) => e.id)).toEqual([id1, id2]);
  });

  it('a rolled-back append leaves a gap that the reader passes over', async () => {
    const db = t.app.db;
    const log = createEventsRepository(db);
    const start = (await log.bounds()).max;
    const t1 = await db.startTransaction().execute();
    await appendEvent(asEventTransaction(t1), event(3));
    await t1.rollback().execute();
    const kept = await t.app.events.transaction((trx) => appendEvent(trx, event(4)));
    expect((await log.listAfter(start, 10)).map((e) => e.id)).toEqual([kept]);
  });
});

const USER = { email: 'live@example.test', password: 'a live password', fullName: 'Li Ve' };

async function signIn(server: ChildServer): Promise<string> {
  const res = await http(`${server.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
  expect(res.status, res.body).toBe(200);
  return ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
}

/** Two real server processes on one fresh database with USER in it; `run` gets both and USER's cookie from the first. */
async function withTwoInstances(run: (a: ChildServer, b: ChildServer, cookie: string, database: ScratchDatabase) => Promise<void>): Promise<void> {
  const database = await scratchDatabase();
  const servers: ChildServer[] = [];
  try {
    await seedUser(database, USER);
    const env = { DATABASE_URL: database.url };
    servers.push(await startServer(env, database.dir), await startServer(env, database.dir));
    const [a, b] = servers as [ChildServer, ChildServer];
    await run(a, b, await signIn(a), database);
  } finally {
    for (const server of servers) await server.stop('SIGTERM');
    await database.drop();
  }
}

/** A stream that has started (it sent its position). */
async function liveStream(server: ChildServer, cookie: string) {
  const stream = await openStream(server.url, cookie);
  expect(stream.status).toBe(200);
  await stream.position();
  return stream;
}

describe.runIf(isPostgres)('events across instances (PostgreSQL)', () => {
  it('a change made through one instance reaches a stream on another, also after its listener was killed', { timeout: 60_000 }, async () => {
    await withTwoInstances(async (a, b, cookie, database) => {
      const stream = await liveStream(b, cookie);

      const create = async (title: string) => {
        const res = await http(`${a.url}/api/tasks`, { method: 'POST', body: { taskTitle: title, assignee: 'someone@example.test' }, headers: { cookie } });
        expect(res.status, res.body).toBe(201);
      };
      await create('Made on A');
      const first = await stream.next();
      expect(first.event).toBe('task.created');
      expect((first.json as { task: { taskTitle: string } }).task.taskTitle).toBe('Made on A');

      // Kill every listening connection of the database mid-stream, then keep writing.
      const killed = await admin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'listen %' and pid <> pg_backend_pid()`,
        [database.name],
      );
      expect(killed.rowCount).toBe(2);
      const titles = ['After kill 1', 'After kill 2', 'After kill 3'];
      for (const title of titles) await create(title);
      const got = [await stream.next(), await stream.next(), await stream.next()];
      expect(got.map((e) => (e.json as { task: { taskTitle: string } }).task.taskTitle)).toEqual(titles);
      const ids = got.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));

      // The listeners came back by themselves: each instance holds one again.
      const listening = async () => {
        const { rows } = await admin(`select count(*)::int as n from pg_stat_activity where datname = $1 and query ilike 'listen %'`, [database.name]);
        return (rows[0] as { n: number }).n;
      };
      await expect.poll(listening, { message: 'both instances listen again', timeout: 15_000, interval: 50 }).toBe(2);
      await create('After reconnect');
      expect(((await stream.next()).json as { task: { taskTitle: string } }).task.taskTitle).toBe('After reconnect');
      stream.close();
    });
  });
});

/** On both databases: several processes share one SQLite file too. */
describe('streams end with their session across instances', () => {
  it('a stream open on one instance ends within 5 s of a logout through another', { timeout: 60_000 }, async () => {
    await withTwoInstances(async (a, b, cookie) => {
      const stream = await liveStream(a, cookie);
      const startedAt = Date.now();
      const res = await http(`${b.url}/api/users/logout`, { method: 'POST', headers: { cookie } });
      expect(res.status, res.body).toBe(200);
      await stream.ended;
      expect(Date.now() - startedAt).toBeLessThan(5000);
    });
  });
});
