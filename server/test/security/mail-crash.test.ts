import { createServer, type Server, type Socket } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher } from '../mail-catcher.ts';
import { http, onPostgres, scratchDatabase, seedUser, startServer, type ChildServer, type ScratchDatabase } from './child-server.ts';

/**
 * A crash between commit and send loses no mail and sends none twice: the real server process
 * commits a task (and its assignment mail) while its mail server stalls, and is SIGKILLed with
 * the mail claimed but not sent. Once the claim's lease has run out, the next process delivers
 * it — once.
 */

const USER = { email: 'crash-creator@example.test', password: 'a crash-proof password', fullName: 'Cora Crash' };
const ASSIGNEE = 'crash-assignee@example.test';
/** The assignee of a later task, whose mail proves the worker claimed again after the first was sent. */
const WITNESS = 'crash-witness@example.test';

/** An SMTP server that accepts connections and never says a word; `connected` resolves at the first. */
async function stallingSmtp(): Promise<{ port: number; connected: Promise<undefined>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const { promise: connected, resolve: onConnection } = Promise.withResolvers<undefined>();
  const server: Server = createServer((socket) => {
    onConnection(undefined);
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The rows of the outbox, read and (for the lease) changed with plain SQL, not through an app. */
async function sql<T>(databaseUrl: string, text: string): Promise<T[]> {
  if (!onPostgres) {
    const db = new DatabaseSync(databaseUrl.slice('file:'.length));
    try {
      const statement = db.prepare(text);
      return (statement.columns().length > 0 ? statement.all() : (statement.run(), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('outbox across a crash', () => {
  let database: ScratchDatabase;
  let catcher: MailCatcher;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    database = await scratchDatabase();
    catcher = await startMailCatcher();
    await seedUser(database, USER);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await catcher.close();
    await database.drop();
  });

  // Two server processes start one after the other: a minute guards against a hang only.
  it('delivers the assignment mail of a committed task once, after a SIGKILL before it was sent', { timeout: 60_000 }, async () => {
    const stall = await stallingSmtp();
    try {
      const first = await startServer({ DATABASE_URL: database.url, SMTP_URL: `smtp://127.0.0.1:${stall.port}` }, database.dir);
      servers.push(first);
      const login = await http(`${first.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
      expect(login.status, login.body).toBe(200);
      const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
      // The API answers at once although the mail server says nothing.
      const created = await http(`${first.url}/api/tasks`, { method: 'POST', headers: { cookie }, body: { taskTitle: 'Survive the crash', assignee: ASSIGNEE } });
      expect(created.status, created.body).toBe(201);

      // The worker connects to the mail server only with the row claimed; it then hangs there.
      await stall.connected;
      const [row] = await sql<{ locked_by: string | null }>(database.url, 'select locked_by from outbox');
      expect(row?.locked_by, 'the row is claimed').not.toBeNull();
      await first.stop('SIGKILL');
    } finally {
      await stall.close();
    }
    expect(await sql<{ status: string }>(database.url, 'select status from outbox')).toEqual([{ status: 'pending' }]);

    // The dead worker's lease runs out (2 minutes, here moved into the past instead of waited for).
    await sql(database.url, "update outbox set locked_until = '2000-01-01T00:00:00.000Z'");
    const second = await startServer({ DATABASE_URL: database.url, SMTP_URL: `smtp://127.0.0.1:${catcher.port}` }, database.dir);
    servers.push(second);
    await expect.poll(() => catcher.to(ASSIGNEE).length, { message: "the first process's mail arrives from the second", timeout: 15_000, interval: 50 }).toBe(1);
    // The worker records the send after the mail server has accepted it, so the row turns
    // `sent` a moment after the mail arrives.
    const status = async () => (await sql<{ status: string }>(database.url, 'select status from outbox'))[0]?.status;
    await expect.poll(status, { message: "the delivered mail's row turns sent", timeout: 5000, interval: 50 }).toBe('sent');
    // A later claim of the worker (the mail of the next task) sends the first one no second time.
    const login = await http(`${second.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const witness = await http(`${second.url}/api/tasks`, { method: 'POST', headers: { cookie }, body: { taskTitle: 'After the crash', assignee: WITNESS } });
    expect(witness.status, witness.body).toBe(201);
    await expect.poll(() => catcher.to(WITNESS).length, { message: "the next task's mail arrives", timeout: 15_000, interval: 50 }).toBe(1);
    expect(catcher.to(ASSIGNEE).map((m) => m.subject)).toEqual(['Cora Crash assigned you: Survive the crash']);
    await second.stop('SIGTERM');
  });
});
