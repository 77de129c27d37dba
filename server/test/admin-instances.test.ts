import { describe, expect, it } from 'vitest';
import type { AccountsEnvelope } from '#shared/schemas/admin.ts';
import { useTestApp } from './helpers.ts';
import { http, scratchDatabase, seedUser, startServer, type ChildServer } from './security/child-server.ts';
import { openStream } from './sse-client.ts';

/**
 * Deactivation across instances (real server processes on one database, SQLite file or
 * PostgreSQL): an admin deactivates through one instance, and the account's event streams on
 * the other end at once — those opened with a session and with an API token — and every call
 * there is refused.
 */
useTestApp();

const ADMIN = { email: 'root@example.test', password: 'the admin password', fullName: 'Ro Ot' };
const USER = { email: 'leaver@example.test', password: 'a leaving password', fullName: 'Lea Ver' };

async function signIn(server: ChildServer, user: { email: string; password: string }): Promise<string> {
  const res = await http(`${server.url}/api/users/login`, { method: 'POST', body: { email: user.email, password: user.password } });
  expect(res.status, res.body).toBe(200);
  return ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
}

async function liveStream(server: ChildServer, cookie: string | undefined, headers: Record<string, string> = {}) {
  const stream = await openStream(server.url, cookie, undefined, headers);
  expect(stream.status).toBe(200);
  await stream.position();
  return stream;
}

describe('deactivating an account across instances', () => {
  it('ends its streams on another instance within 5 s (session and API token), and that instance refuses it', { timeout: 90_000 }, async () => {
    const database = await scratchDatabase();
    const servers: ChildServer[] = [];
    try {
      await seedUser(database, ADMIN);
      await seedUser(database, USER);
      const env = { DATABASE_URL: database.url, ADMIN_EMAILS: ADMIN.email };
      servers.push(await startServer(env, database.dir), await startServer(env, database.dir));
      const [a, b] = servers as [ChildServer, ChildServer];

      const userCookie = await signIn(b, USER);
      const created = await http(`${b.url}/api/tokens`, { method: 'POST', body: { name: 'Script', access: 'read' }, headers: { cookie: userCookie } });
      expect(created.status, created.body).toBe(201);
      const secret = (created.json as { data: { secret: string } }).data.secret;
      const bearer = { authorization: `Bearer ${secret}` };
      const onB = [await liveStream(b, userCookie), await liveStream(b, undefined, bearer)];
      const onA = await liveStream(a, await signIn(a, USER));

      const adminCookie = await signIn(a, ADMIN);
      const listed = await http(`${a.url}/api/admin/accounts?q=leaver`, { headers: { cookie: adminCookie } });
      expect(listed.status, listed.body).toBe(200);
      const id = (listed.json as AccountsEnvelope).data.accounts[0]?.id ?? '';
      const startedAt = Date.now();
      const res = await http(`${a.url}/api/admin/accounts/${id}/deactivate`, { method: 'POST', headers: { cookie: adminCookie } });
      expect(res.status, res.body).toBe(200);
      // On the instance that deactivated: at once, without waiting for its check.
      await onA.ended;
      await Promise.all(onB.map((s) => s.ended));
      expect(Date.now() - startedAt).toBeLessThan(5000);

      expect((await http(`${b.url}/api/users/me`, { headers: { cookie: userCookie } })).status).toBe(401);
      expect((await http(`${b.url}/api/tasks`, { headers: bearer })).status).toBe(401);
      const login = await http(`${b.url}/api/users/login`, { method: 'POST', body: { email: USER.email, password: USER.password } });
      expect(login.status).toBe(403);
      expect((login.json as { code: string }).code).toBe('ACCOUNT_DEACTIVATED');
      // A new stream with the token is refused too.
      expect((await openStream(b.url, undefined, undefined, bearer)).status).toBe(401);
    } finally {
      for (const server of servers) await server.stop('SIGTERM');
      await database.drop();
    }
  });
});
