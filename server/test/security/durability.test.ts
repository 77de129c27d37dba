import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { admin, http, onPostgres, onSqlite, scratchDatabase, seedUser, startServer, taskIdOf, type ChildServer, type HttpAnswer } from './child-server.ts';

/**
 * Durability (every write that answers 2xx is committed; ASVS 7.4.1, 4.1.5):
 * - SQLite: the real server process is SIGKILLed in the middle of concurrent writes, three
 *   times; after each kill the file passes `PRAGMA integrity_check` and holds every task whose
 *   201 reached the client.
 * - PostgreSQL: the database is cut away in the middle of concurrent writes (connections
 *   refused and terminated); while it is away every answer is a JSend 503 (no
 *   hang, no 500, no internals); when it returns the same process recovers by itself; no
 *   acknowledged write is lost.
 */

/** Long enough for any answer on a busy machine; only a request that hangs reaches it. */
const HANG_GUARD_MS = 20_000;

const USER = { email: 'durable@example.test', password: 'a durable password', fullName: 'Dura Bility' };

async function signIn(server: ChildServer): Promise<string> {
  const res = await http(`${server.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
  expect(res.status, res.body).toBe(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0];
  expect(cookie).toBeDefined();
  return cookie!;
}

let titleSequence = 0;
const createTask = (server: ChildServer, cookie: string, timeoutMs = 15_000) =>
  http(`${server.url}/api/tasks`, {
    method: 'POST',
    body: { taskTitle: `Durable task ${++titleSequence}`, assignee: 'someone@example.test' },
    headers: { cookie },
    timeoutMs,
  });

describe.runIf(onSqlite)('SQLite: SIGKILL in the middle of concurrent writes', () => {
  it('after each of 3 kills the file is intact and holds every acknowledged task', async () => {
    const db = await scratchDatabase();
    const file = db.url.slice('file:'.length);
    const acknowledged = new Set<string>();
    let cookie: string | undefined;
    try {
      await seedUser(db, USER);
      for (let round = 1; round <= 3; round++) {
        const server = await startServer({ DATABASE_URL: db.url }, db.dir);
        try {
          cookie ??= await signIn(server);
          const target = acknowledged.size + 40;
          const load = { killed: false };
          // A function, so the check is not narrowed away across the awaits below.
          const killed = (): boolean => load.killed;
          const unexpected: string[] = [];
          const worker = async () => {
            while (!killed()) {
              let res: HttpAnswer;
              try {
                res = await createTask(server, cookie!);
              } catch (error) {
                if (!killed()) unexpected.push(String(error));
                return;
              }
              if (res.status !== 201) {
                unexpected.push(`${res.status} ${res.body}`);
                continue;
              }
              acknowledged.add(taskIdOf(res));
              if (acknowledged.size >= target && !killed()) {
                load.killed = true;
                // Other workers' writes are in flight right now.
                process.kill(server.process.pid!, 'SIGKILL');
              }
            }
          };
          await Promise.all(Array.from({ length: 12 }, worker));
          expect(unexpected, server.output().slice(-3000)).toEqual([]);
          expect((await server.exited).signal).toBe('SIGKILL');
        } finally {
          await server.stop();
        }

        // The process is gone; open the file as a backup tool would.
        const sqlite = new DatabaseSync(file);
        try {
          expect(sqlite.prepare('pragma integrity_check').get(), `round ${round}`).toEqual({ integrity_check: 'ok' });
          const ids = new Set(sqlite.prepare('select id from tasks').all().map((r) => r.id));
          const lost = [...acknowledged].filter((id) => !ids.has(id));
          expect(lost, `round ${round}: acknowledged but missing`).toEqual([]);
        } finally {
          sqlite.close();
        }
      }
      expect(acknowledged.size).toBeGreaterThanOrEqual(120);
    } finally {
      await db.drop();
    }
  }, 120_000);
});

describe.runIf(onPostgres)('PostgreSQL: the database cut away in the middle of concurrent writes', () => {
  it('answers a JSend 503 while it is away (no hang), recovers by itself, and loses no acknowledged write', async () => {
    const db = await scratchDatabase();
    let server: ChildServer | undefined;
    let cut = false;
    try {
      await seedUser(db, USER);
      server = await startServer({ DATABASE_URL: db.url }, db.dir);
      const cookie = await signIn(server);
      const acknowledged = new Set<string>();
      const whileAway: HttpAnswer[] = [];
      const problems: string[] = [];
      let phase: 'before' | 'away' | 'done' = 'before';
      // Resolves once 30 writes were acknowledged (or something went wrong): the cut comes then.
      const { promise: thirtyAcknowledged, resolve: mayCut } = Promise.withResolvers<undefined>();

      const worker = async () => {
        while (phase !== 'done') {
          let res: HttpAnswer;
          try {
            res = await createTask(server!, cookie, HANG_GUARD_MS);
          } catch (error) {
            problems.push(`socket: ${String(error)}`);
            return;
          }
          if (res.status === 201) acknowledged.add(taskIdOf(res));
          // Answers that arrive after the cut (also once enough were collected) are "while away".
          else if (phase !== 'before') whileAway.push(res);
          else problems.push(`${phase}: ${res.status} ${res.body}`);
          if (acknowledged.size >= 30 || problems.length > 0) mayCut(undefined);
          if (phase === 'away' && whileAway.length >= 40) phase = 'done';
        }
      };
      const load = Promise.all(Array.from({ length: 8 }, worker));

      await thirtyAcknowledged;
      await admin(`alter database ${db.name} allow_connections false`);
      cut = true;
      phase = 'away';
      await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db.name]);
      const health = await http(`${server.url}/api/health`, { timeoutMs: HANG_GUARD_MS });
      const list = await http(`${server.url}/api/tasks`, { headers: { cookie }, timeoutMs: HANG_GUARD_MS });
      await load;

      expect(problems, `server output:\n${server.output().slice(-3000)}`).toEqual([]);
      const SERVICE_UNAVAILABLE = { status: 'error', code: 'SERVICE_UNAVAILABLE', message: SERVER_MESSAGES.serviceUnavailable };
      for (const res of [...whileAway, health, list]) {
        expect(res.status, res.body).toBe(503);
        expect(res.json).toEqual(SERVICE_UNAVAILABLE);
      }

      await admin(`alter database ${db.name} allow_connections true`);
      cut = false;
      // The same process, not restarted, serves again (polled; the limit only guards against a hang).
      const live = server;
      const write = async () => {
        const res = await createTask(live, cookie, HANG_GUARD_MS);
        if (res.status === 201) acknowledged.add(taskIdOf(res));
        return res.status;
      };
      await expect.poll(write, { message: 'recovered without a restart', timeout: 45_000, interval: 100 }).toBe(201);
      expect((await http(`${server.url}/api/health`)).status).toBe(200);

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string }>('select id from tasks');
        const ids = new Set(rows.map((r) => r.id));
        expect([...acknowledged].filter((id) => !ids.has(id)), 'acknowledged but missing').toEqual([]);
      } finally {
        await client.end();
      }
      expect(acknowledged.size).toBeGreaterThanOrEqual(31);
    } finally {
      if (cut) await admin(`alter database ${db.name} allow_connections true`);
      await server?.stop();
      await db.drop();
    }
  }, 120_000);
});
