import { afterEach, describe, expect, it } from 'vitest';
import { http, scratchDatabase, seedUser, startServer, type ChildServer, type ScratchDatabase } from './security/child-server.ts';

/** The real `node server/server.ts`, its log read back as written. */
let server: ChildServer | undefined;
let database: ScratchDatabase | undefined;
afterEach(async () => {
  await server?.stop('SIGTERM');
  await database?.drop();
  server = undefined;
  database = undefined;
});

// Starts and stops a server process: the hang guard of the other suites that start processes.
describe('the calendar feed in the server log', { timeout: 60_000 }, () => {
  it('never holds the secret of a feed URL, answered or refused', async () => {
    database = await scratchDatabase();
    const user = { email: 'calendar-log@example.com', password: 'a long enough password', fullName: 'Cal Endar' };
    await seedUser(database, user);
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, database.dir);
    const base = server.url;
    const login = await http(`${base}/api/users/login`, { method: 'POST', body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const made = await http(`${base}/api/users/me/calendar`, { headers: { cookie } });
    const url = (made.json as { data: { url: string } }).data.url;
    const secret = /\/api\/calendar\/([A-Za-z0-9_-]{43})\.ics$/.exec(url)?.[1] ?? '';
    expect(secret).toHaveLength(43);

    const answered = await http(`${base}/api/calendar/${secret}.ics?board=x`);
    expect(answered.status).toBe(200);
    expect((await http(`${base}/api/calendar/${secret}.ics?board=x`, { headers: { 'if-none-match': String(answered.headers.etag) } })).status).toBe(304);
    const rotated = await http(`${base}/api/users/me/calendar/rotate`, { method: 'POST', headers: { cookie } });
    expect(rotated.status).toBe(200);
    // The old secret is refused now: a 404 is logged like any answer.
    expect((await http(`${base}/api/calendar/${secret}.ics`)).status).toBe(404);
    await server.stop('SIGTERM');
    const output = server.output();

    expect(output).not.toContain(secret);
    const logged = output
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; url?: string; statusCode?: number })
      .filter((record) => record.msg === 'request completed' && record.url?.startsWith('/api/calendar/') === true)
      .map((record) => [record.url, record.statusCode]);
    expect(logged).toEqual([
      ['/api/calendar/[redacted]?board=x', 200],
      ['/api/calendar/[redacted]?board=x', 304],
      ['/api/calendar/[redacted]', 404],
    ]);
  });
});
