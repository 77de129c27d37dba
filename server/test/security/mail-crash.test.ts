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

/** An SMTP server that accepts connections and never says a word. */
async function stallingSmtp(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
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

  it('delivers the assignment mail of a committed task once, after a SIGKILL before it was sent', async () => {
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

      // Wait until the worker has claimed the row (it then hangs on the silent mail server).
      for (let i = 0; ; i++) {
        const [row] = await sql<{ locked_by: string | null; status: string }>(database.url, 'select locked_by, status from outbox');
        if (row?.locked_by != null) break;
        if (i > 200) throw new Error('the outbox row was never claimed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await first.stop('SIGKILL');
    } finally {
      await stall.close();
    }
    expect(await sql<{ status: string }>(database.url, 'select status from outbox')).toEqual([{ status: 'pending' }]);

    // The dead worker's lease runs out (2 minutes, here moved into the past instead of waited for).
    await sql(database.url, "update outbox set locked_until = '2000-01-01T00:00:00.000Z'");
    const second = await startServer({ DATABASE_URL: database.url, SMTP_URL: `smtp://127.0.0.1:${catcher.port}` }, database.dir);
    servers.push(second);
    for (let i = 0; catcher.to(ASSIGNEE).length === 0; i++) {
      if (i > 300) throw new Error(`no mail arrived:\n${second.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The worker records the send after the mail server has accepted it, so the row turns
    // `sent` a moment after the mail arrives.
    for (let i = 0; ; i++) {
      const [row] = await sql<{ status: string }>(database.url, 'select status from outbox');
      if (row?.status === 'sent') break;
      if (i > 100) throw new Error(`the delivered mail's row stayed ${row?.status ?? 'missing'}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A poll later, still exactly one.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(catcher.to(ASSIGNEE).map((m) => m.subject)).toEqual(['Cora Crash assigned you: Survive the crash']);
    await second.stop('SIGTERM');
  });
});
