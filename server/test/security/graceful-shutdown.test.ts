import { existsSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { build } from '../../app.ts';
import { newId } from '../../db/ids.ts';
import { loadConfig } from '../../config.ts';
import { hashPassword } from '../../services/passwords.ts';
import { admin, http, onPostgres, scratchDatabase, startServer, type ChildServer } from './child-server.ts';
import { withConventions } from '../../i18n/account-language.ts';

/**
 * Graceful shutdown (server.ts): on SIGTERM the server stops taking new connections, finishes
 * the requests already in flight with their normal answers, closes the database, and exits 0.
 *
 * "In flight" is made certain, not hoped for: each request is sent with `Expect: 100-continue`,
 * and the server's `100 Continue` proves it has read the request head and is waiting for the
 * body. SIGTERM goes out while every request is in that state; the bodies follow afterwards.
 */
const USER = { email: 'graceful@example.test', password: 'a graceful password', fullName: 'Grace Ful' };

interface Held {
  /** Resolves once the server answered 100 Continue. */
  continued: Promise<void>;
  /** Sends the body; resolves with the final status (rejects on a socket error). */
  finish(): Promise<{ status: number; body: string }>;
}

/** Starts a request on its own connection and holds its body back. */
function hold(server: ChildServer, path: string, body: unknown, cookie?: string): Held {
  const payload = JSON.stringify(body);
  let answered: (value: { status: number; body: string }) => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const result = new Promise<{ status: number; body: string }>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  const req = httpRequest(`${server.url}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      expect: '100-continue',
      ...(cookie === undefined ? {} : { cookie }),
    },
  });
  const continued = new Promise<void>((resolve) => req.once('continue', resolve));
  req.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      answered({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
    });
    res.on('error', failed);
  });
  req.on('error', failed);
  req.flushHeaders();
  return {
    continued,
    finish() {
      req.end(payload);
      return result;
    },
  };
}

/** Whether a new TCP connection to the port is refused right now. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ECONNREFUSED');
    });
  });
}

describe('graceful shutdown on SIGTERM', () => {
  it('refuses new connections, completes every in-flight request with 2xx, closes the database, exits 0', async () => {
    const db = await scratchDatabase();
    let server: ChildServer | undefined;
    try {
      const config = loadConfig({ DATABASE_URL: db.url, SESSION_SECRET: 'seed-secret-seed-secret-seed-secret-01', LOG_LEVEL: 'silent' }, db.dir);
      const seedApp = await build({ config });
      const now = new Date().toISOString();
      await seedApp.usersRepository.insert({ id: newId(), email: USER.email, fullName: USER.fullName, passwordHash: await hashPassword(USER.password), createdAt: now, updatedAt: now, ...withConventions('en') });
      await seedApp.close();

      server = await startServer({ DATABASE_URL: db.url }, db.dir);
      const login = await http(`${server.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
      expect(login.status).toBe(200);
      const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;

      const titles = Array.from({ length: 12 }, (_, i) => `In flight ${i}`);
      const held = [
        ...titles.map((taskTitle) => hold(server!, '/api/tasks', { taskTitle, assignee: 'someone@example.test' }, cookie)),
        // Sign-ins are the slowest call (argon2id), and start sessions: writes too.
        ...Array.from({ length: 4 }, () => hold(server!, '/api/users/login', { email: USER.email, password: USER.password })),
      ];
      await Promise.all(held.map((h) => h.continued));

      process.kill(server.process.pid!, 'SIGTERM');
      // Only a connection attempt tells: polled, at most 5 s.
      const { port } = server;
      await expect.poll(() => connectionRefused(port), { message: 'new connections are refused after SIGTERM', timeout: 5000, interval: 20 }).toBe(true);

      const answers = await Promise.all(held.map((h) => h.finish()));
      expect(answers.map((a) => a.status)).toEqual([...titles.map(() => 201), 200, 200, 200, 200]);

      const exit = await server.exited;
      expect(exit, server.output()).toEqual({ code: 0, signal: null });

      if (onPostgres) {
        const { rows } = await admin('select count(*)::int as n from pg_stat_activity where datname = $1', [db.name]);
        expect((rows[0] as { n: number }).n, 'connections left open').toBe(0);
      } else {
        // A cleanly closed SQLite database has checkpointed and removed its write-ahead log.
        const wal = `${db.url.slice('file:'.length)}-wal`;
        expect(existsSync(wal) ? statSync(wal).size : 0, 'WAL left behind: the database was not closed').toBe(0);
      }

      // Every answered write is there after the restart.
      server = await startServer({ DATABASE_URL: db.url }, db.dir);
      const list = await http(`${server.url}/api/tasks`, { headers: { cookie } });
      expect(list.status).toBe(200);
      const stored = (list.json as { data: { tasks: { taskTitle: string }[] } }).data.tasks.map((x) => x.taskTitle).sort();
      expect(stored).toEqual([...titles].sort());
    } finally {
      await server?.stop();
      await db.drop();
    }
  }, 60_000);
});
