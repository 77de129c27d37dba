import { afterEach, describe, expect, it } from 'vitest';
import { LOG_FLUSH_MS } from '../app.ts';
import { signUnsubscribeToken } from '../mail/unsubscribe-tokens.ts';
import { http, scratchDatabase, startServer, type ChildServer, type ScratchDatabase } from './security/child-server.ts';

/** The real `node server/server.ts` without SMTP_URL: every mail goes to the log instead. */
let server: ChildServer | undefined;
let database: ScratchDatabase | undefined;
afterEach(async () => {
  await server?.stop('SIGTERM');
  await database?.drop();
  server = undefined;
  database = undefined;
});

async function printMail(logFormat: 'json' | 'pretty'): Promise<string> {
  database = await scratchDatabase();
  server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info', LOG_FORMAT: logFormat }, database.dir);
  const res = await http(`${server.url}/api/otps`, { method: 'POST', body: { email: 'printed@example.com' }, headers: { origin: server.url } });
  expect(res.status).toBe(201);
  await server.stop('SIGTERM');
  return server.output();
}

// Starts server processes: the hang guard of the other suites that start processes.
describe('the server log', { timeout: 60_000 }, () => {
  it('is one JSON object a line, the printed mail included, with LOG_FORMAT=json', async () => {
    const lines = (await printMail('json')).trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { msg?: string; mail?: { to: string; subject: string; text: string } });
    const mail = records.find((r) => r.mail !== undefined)?.mail;
    expect(mail?.to).toBe('printed@example.com');
    expect(mail?.text).toMatch(/^\d{6}$/m);
    expect(records.some((r) => r.msg?.startsWith('Taskwise is ready at'))).toBe(true);
  });

  it('is readable text with the mail as a plain block, with LOG_FORMAT=pretty', async () => {
    const output = await printMail('pretty');
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] .*INFO.*: .*Taskwise is ready at/m);
    expect(output).not.toMatch(/^\{"level"/m);
    const block = /^-{72}\nMail not sent \(SMTP_URL is not set\)\n[\s\S]*?^-{72}$/m.exec(output)?.[0] ?? '';
    expect(block).toContain('To: printed@example.com');
    expect(block).toMatch(/^\d{6}$/m);
  });

  it('shows a running server’s request lines while it runs: lines under 4 KiB wait at most its flush interval', async () => {
    database = await scratchDatabase();
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, database.dir);
    const running = server;
    const answered = await Promise.all(Array.from({ length: 10 }, (_, i) => http(`${running.url}/api/health?n=${i}`)));
    expect(answered.every((res) => res.status === 200)).toBe(true);
    const requestLines = () =>
      running
        .output()
        .split('\n')
        .filter((line) => line.includes('"request completed"') && line.includes('/api/health?n=')).length;
    // Ten lines (about 1.7 KB) are under the 4 KiB a write waits for: the flush timer writes them.
    await expect.poll(requestLines, { message: 'every request line is in the log', timeout: 20 * LOG_FLUSH_MS, interval: 20 }).toBe(10);
    expect(running.process.exitCode).toBeNull();
  });

  it('never holds a token of a URL: the unsubscribe links are logged with the token replaced', async () => {
    database = await scratchDatabase();
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, database.dir);
    const token = signUnsubscribeToken('child-secret-child-secret-child-secret-01', 'reader@example.com', 'assigned');
    const signature = token.split('.')[2] ?? '';
    const urls = [
      `/unsubscribe?token=${token}`,
      `/api/unsubscribe?token=${token}`,
      // Spelled another way, the parameter still reaches the route as `token`.
      `/api/unsubscribe?%74oken=${encodeURIComponent(token)}&x=1`,
    ];
    const page = await http(`${server.url}${urls[0] ?? ''}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    for (const url of urls.slice(1)) expect((await http(`${server.url}${url}`, { method: 'POST', headers: { origin: server.url } })).status).toBe(200);
    await server.stop('SIGTERM');
    const output = server.output();

    expect(output).not.toContain(signature);
    expect(output).not.toContain(token.split('.')[0]);
    const logged = output
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; url?: string })
      .filter((record) => record.msg === 'request completed')
      .map((record) => record.url)
      .filter((url) => url?.includes('unsubscribe'));
    expect(logged).toEqual(['/unsubscribe?token=[redacted]', '/api/unsubscribe?token=[redacted]', '/api/unsubscribe?token=[redacted]&x=1']);
  });
});
