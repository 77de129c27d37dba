import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createTask, nextIp, uniqueEmail } from '../factories.ts';
import { useTestApp } from '../helpers.ts';
import { snapshot } from './db-snapshot.ts';

/**
 * The HTTP surface (ASVS 5.1.5, 5.2.3, 5.3.9, 4.3.2, 13.1.5, 13.2.1, 13.2.5): malformed JSON,
 * content types, body size, static-file path traversal, e-mail header
 * injection, and methods nobody should use. The sign-in return path (no open redirect) is proven
 * next to its code: web/src/lib/return-path.security.test.ts.
 */

// A web root with canaries around it: files that must never be served.
const sandbox = mkdtempSync(join(tmpdir(), 'taskwise-traversal-'));
const webRoot = join(sandbox, 'web');
const CANARY = {
  outside: 'CANARY-outside-the-web-root-7f3a',
  packageJson: 'CANARY-package-json-91bc',
  dotenv: 'CANARY-dotenv-secret-55d1',
  git: 'CANARY-git-config-0e2f',
};
mkdirSync(join(webRoot, 'assets'), { recursive: true });
mkdirSync(join(webRoot, '.git'), { recursive: true });
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Taskwise</title><div id="root"></div>');
writeFileSync(join(webRoot, 'assets', 'app-1234.js'), 'console.log("app")');
writeFileSync(join(webRoot, '.env'), `SESSION_SECRET=${CANARY.dotenv}`);
writeFileSync(join(webRoot, '.git', 'config'), `[core] ${CANARY.git}`);
writeFileSync(join(sandbox, 'secret.txt'), CANARY.outside);
writeFileSync(join(sandbox, 'package.json'), `{"name":"${CANARY.packageJson}"}`);

const t = useTestApp({ patch: { webRoot } });

interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Sends a request line exactly as given (no client-side normalization) over a real socket. */
async function rawGet(port: number, target: string, accept = '*/*'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('connect', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, split), body: text.slice(split + 4) });
    });
  });
}

async function listen(): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function expectNoCanary(res: RawResponse, target: string) {
  for (const canary of Object.values(CANARY)) expect(res.body, `${target} leaked ${canary}`).not.toContain(canary);
  expect(res.body, `${target} leaked /etc/passwd`).not.toMatch(/root:.*:0:0:/);
  expect(res.status, `${target}: ${res.head}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `${target}: ${res.head}`).toBeLessThan(500);
}

describe('static files: path traversal never leaves the web root', () => {
  const TARGETS = [
    '/../secret.txt',
    '/../../package.json',
    '/..%2fsecret.txt',
    '/..%2f..%2fpackage.json',
    '/..%2Fpackage.json',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/%2E%2E%2Fpackage.json',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/....//secret.txt',
    '/..;/secret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/%c0%ae%c0%ae%c0%afsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/..%00/secret.txt',
    '/secret.txt%00.html',
    '//secret.txt',
    `/${'..%2f'.repeat(12)}etc/passwd`,
    'http://127.0.0.1/../secret.txt',
    '/.env',
    '/%2eenv',
    '/.git/config',
    '/.git%2fconfig',
    '/assets/',
    '/assets/%2e%2e',
  ];

  it.each(['*/*', 'text/html'])('never serves a file outside dist/web, a dotfile or a listing (Accept %s)', async (accept) => {
    const port = await listen();
    for (const target of TARGETS) {
      const res = await rawGet(port, target, accept);
      expectNoCanary(res, target);
      expect(res.body, `${target} listed a directory`).not.toContain('app-1234.js');
    }
    // The real files are served, so the refusals above are not an accident of a broken set-up.
    expect((await rawGet(port, '/assets/app-1234.js')).body).toBe('console.log("app")');
  });

  it('a refused path is a JSend 404 like any missing page, not a misleading FORBIDDEN_ORIGIN or a framework body', async () => {
    const port = await listen();
    const wrong: string[] = [];
    for (const target of TARGETS) {
      const res = await rawGet(port, target);
      if (res.status < 400) continue;
      const json = JSON.parse(res.body) as unknown;
      const expected = { status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.routeNotFound };
      if (res.status !== 404 || JSON.stringify(json) !== JSON.stringify(expected)) wrong.push(`${target} → ${res.status} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it('never serves a canary for any combination of dot segments and encoded separators (fast-check)', async () => {
    const port = await listen();
    const segment = fc.constantFrom('..', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '%252e%252e', '%c0%ae%c0%ae', '....', '.', 'assets', 'secret.txt', 'package.json', '.env', '.git', 'config', '%00');
    const separator = fc.constantFrom('/', '%2f', '%2F', '%5c', '\\', '%252f', '//', '%c0%af');
    const path = fc.array(fc.tuple(segment, separator), { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.map(([s, sep]) => `${s}${sep}`).join('')}`);
    await fc.assert(
      fc.asyncProperty(path, fc.boolean(), fc.constantFrom('secret.txt', 'package.json', ''), async (p, html, tail) => {
        expectNoCanary(await rawGet(port, `${p}${tail}`, html ? 'text/html' : '*/*'), `${p}${tail}`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('request bodies', () => {
  it('malformed JSON of every kind is 400 MALFORMED_JSON and stores nothing, also a complete task with a pollution key', async () => {
    const { cookie } = await createSignedInUser(t);
    for (const body of [
      '{',
      '{"taskTitle": "x",}',
      "{'taskTitle': 'single quotes'}",
      '{"taskTitle": NaN}',
      'undefined',
      '{"taskTitle": "Dup"} {"taskTitle": "Dup"}',
      '{"__proto__": {"polluted": true}, "taskTitle": "Prototype", "assignee": "a@example.test"}',
      '{"taskTitle": "Nested", "assignee": "a@example.test", "workTitle": {"__proto__": {"polluted": true}}}',
      '{"constructor": {"prototype": {"polluted": true}}, "taskTitle": "Ctor", "assignee": "a@example.test"}',
    ]) {
      const before = await snapshot(t.app.db);
      const res = await t.request('POST', '/api/tasks', { body, cookie });
      expect(res.status, body).toBe(400);
      expect(res.json, body).toEqual({ status: 'fail', code: 'MALFORMED_JSON', message: SERVER_MESSAGES.malformedJson });
      expect(await snapshot(t.app.db), body).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('every state-changing route answers 415 to a non-JSON body, and stores nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const routes = [
      ['POST', '/api/otps', 'email=a%40example.test'],
      ['POST', '/api/users/register', 'email=a%40example.test&otp=123456&fullName=A&password=aaaaaaaaaa'],
      ['POST', '/api/users/login', 'email=a%40example.test&password=aaaaaaaaaa'],
      ['POST', '/api/tasks', 'taskTitle=Form+post&assignee=a%40example.test'],
      ['PATCH', `/api/tasks/${task._id}`, 'status=done'],
    ] as const;
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=xyz', 'application/xml']) {
      for (const [method, url, body] of routes) {
        const before = await snapshot(t.app.db);
        const res = await t.request(method, url, { body, cookie, ip: nextIp(), headers: { 'content-type': type } });
        expect(res.status, `${method} ${url} as ${type}`).toBe(415);
        expect(res.json).toEqual({ status: 'fail', code: 'UNSUPPORTED_MEDIA_TYPE', message: SERVER_MESSAGES.unsupportedMediaType });
        expect(await snapshot(t.app.db)).toEqual(before);
      }
    }
  });

  it(`a body over ${LIMITS.bodyMaxBytes} bytes is 413 on every route; one of exactly ${LIMITS.bodyMaxBytes} bytes is read`, async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const padded = (bytes: number, fields: Record<string, string>) => {
      const base = JSON.stringify({ ...fields, pad: '' });
      return `${base.slice(0, -2)}${'x'.repeat(bytes - base.length)}"}`;
    };
    const routes = [
      ['POST', '/api/otps', { email: 'big@example.test' }],
      ['POST', '/api/users/register', { email: 'big@example.test', otp: '123456', fullName: 'Big', password: 'a long enough password' }],
      ['POST', '/api/users/login', { email: 'big@example.test', password: 'a long enough password' }],
      ['POST', '/api/tasks', { taskTitle: 'Big', assignee: 'big@example.test' }],
      ['PATCH', `/api/tasks/${task._id}`, { status: 'done' }],
    ] as const;
    for (const [method, url, fields] of routes) {
      const before = await snapshot(t.app.db);
      const over = padded(LIMITS.bodyMaxBytes + 1, fields);
      expect(Buffer.byteLength(over)).toBe(LIMITS.bodyMaxBytes + 1);
      const res = await t.request(method, url, { body: over, cookie, ip: nextIp() });
      expect(res.status, `${method} ${url}`).toBe(413);
      expect(res.json).toEqual({ status: 'fail', code: 'PAYLOAD_TOO_LARGE', message: SERVER_MESSAGES.payloadTooLarge });
      expect(await snapshot(t.app.db)).toEqual(before);
      const exact = await t.request(method, url, { body: padded(LIMITS.bodyMaxBytes, fields), cookie, ip: nextIp() });
      expect(exact.status, `${method} ${url} at the limit`).not.toBe(413);
    }
  });

  it('a huge body in multi-byte characters is measured in bytes, not characters', async () => {
    const { cookie } = await createSignedInUser(t);
    const title = '€'.repeat(Math.ceil(LIMITS.bodyMaxBytes / 3));
    const res = await t.request('POST', '/api/tasks', { body: { taskTitle: title, assignee: 'a@example.test' }, cookie });
    expect(res.status).toBe(413);
  });
});

describe('e-mail header injection', () => {
  const INJECTIONS = [
    'victim@example.test\r\nBcc: attacker@evil.test',
    'victim@example.test\nBcc: attacker@evil.test',
    'victim@example.test\rBcc: attacker@evil.test',
    'victim@example.test%0d%0aBcc:attacker@evil.test',
    'victim@example.test, attacker@evil.test',
    'victim@example.test;attacker@evil.test',
    'Victim <victim@example.test>',
    '"attacker@evil.test"@example.test',
    'victim@example.test\u0085Bcc: attacker@evil.test',
    'victim@example.test\u2028Bcc: attacker@evil.test',
  ];

  it('POST /api/otps with CR, LF, NEL, LS, a list or a display name in the address is 400 and sends no mail', async () => {
    for (const email of INJECTIONS) {
      const sent = t.mail.mails.length;
      const res = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(t.mail.mails.length, JSON.stringify(email)).toBe(sent);
    }
    expect(t.mail.to('attacker@evil.test')).toEqual([]);
  });

  it('the same addresses are refused as an assignee, at sign-in and at registration', async () => {
    const { cookie } = await createSignedInUser(t);
    for (const email of INJECTIONS) {
      const before = await snapshot(t.app.db);
      expect((await t.request('POST', '/api/tasks', { body: { taskTitle: 'Inject', assignee: email }, cookie })).status, email).toBe(400);
      expect((await t.request('POST', '/api/users/login', { body: { email, password: 'whatever password' }, ip: nextIp() })).status, email).toBe(400);
      expect(
        (await t.request('POST', '/api/users/register', { body: { email, otp: '123456', fullName: 'X', password: 'a long enough password' } })).status,
        email,
      ).toBe(400);
      expect(await snapshot(t.app.db)).toEqual(before);
    }
  });

  it('a valid but unusual address gets one mail with exactly one recipient and one To header', async () => {
    const email = `o'brien+tag.${uniqueEmail('x')}`.replace(/@.*$/, '@sub.example.test');
    const res = await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
    expect(res.status).toBe(201);
    const mail = t.mail.last(email);
    expect(mail.to).toEqual([email]);
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    expect(head.match(/^To:/gim)).toHaveLength(1);
    expect(head).not.toMatch(/^(?:Bcc|Cc):/im);
  });
});

describe('methods', () => {
  it('methods the API does not offer are 404/405 JSend answers that change nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const before = await snapshot(t.app.db);
    for (const method of ['PUT', 'TRACE', 'OPTIONS', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/tasks', `/api/tasks/${task._id}/x`, '/api/users/me/export', '/api/users']) {
        const res = await t.request(method, url, { cookie, headers: { 'content-type': 'application/json' }, body: '{"status":"done"}' });
        expect([404, 405], `${method} ${url}: ${res.body}`).toContain(res.status);
        expect((res.json as typeof res.json | undefined)?.status, `${method} ${url}`).toBe('fail');
      }
    }
    expect(await snapshot(t.app.db)).toEqual(before);
  });
});
