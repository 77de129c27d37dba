import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS, SESSION_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createTask, createUser, nextIp, signIn, uniqueEmail } from '../factories.ts';
import { MINUTE, TEST_ORIGIN, useTestApp, type Response } from '../helpers.ts';
import { sessionHashes, snapshot } from './db-snapshot.ts';

/**
 * Security headers, cookies, CORS and the Origin check (ASVS 3.4.x, 4.2.2, 13.2.3, 14.4.x,
 * 14.5.3). Cookie basics at sign-in are also in ../users-login.test.ts; this file checks every
 * Set-Cookie the server can send, under http and https.
 */
const webRoot = mkdtempSync(join(tmpdir(), 'taskwise-headers-'));
mkdirSync(join(webRoot, 'assets'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Taskwise</title><script type="module" src="/assets/app.js"></script>');
writeFileSync(join(webRoot, 'assets', 'app.js'), 'export {}');

const t = useTestApp();

function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') map.set(name.toLowerCase(), values);
  }
  return map;
}

/** CSP, nosniff, frame denial and referrer policy on one answer. */
function expectSecurityHeaders(res: Response, label: string) {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, `${label}: CSP`).not.toBe('');
  const d = directives(csp);
  const scripts = d.get('script-src') ?? d.get('default-src');
  expect(scripts, `${label}: script-src or default-src`).toBeDefined();
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) {
    expect(scripts, `${label}: script-src allows ${bad}`).not.toContain(bad);
  }
  expect(d.get('object-src') ?? d.get('default-src'), `${label}: object-src`).toBeDefined();
  expect(res.headers['x-content-type-options'], `${label}: nosniff`).toBe('nosniff');
  const frameAncestors = d.get('frame-ancestors');
  expect(res.headers['x-frame-options'] === 'DENY' || frameAncestors?.join(' ') === "'none'", `${label}: frame denial`).toBe(true);
  expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'], `${label}: referrer policy`).toContain(res.headers['referrer-policy']);
  expect(res.headers['x-powered-by'], `${label}: x-powered-by`).toBeUndefined();
}

describe('security headers', () => {
  it('on API answers of every kind: 2xx, 4xx of each family, and a malformed URL', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const email = uniqueEmail();
    await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() });
    const answers: [string, Response][] = [
      ['health 200', await t.request('GET', '/api/health')],
      ['list 200', await t.request('GET', '/api/tasks', { cookie })],
      ['create 201', await t.request('POST', '/api/tasks', { body: { taskTitle: 'Headers', assignee: email }, cookie })],
      ['delete 204', await t.request('DELETE', `/api/tasks/${task._id}`, { cookie })],
      ['400 validation', await t.request('POST', '/api/tasks', { body: { taskTitle: 'x' }, cookie })],
      ['400 malformed JSON', await t.request('POST', '/api/tasks', { body: '{', cookie })],
      ['401', await t.request('GET', '/api/tasks')],
      ['403 origin', await t.request('GET', '/api/tasks', { cookie, headers: { origin: 'https://evil.example' } })],
      ['404 route', await t.request('GET', '/api/nothing-here')],
      ['404 task', await t.request('PATCH', '/api/tasks/missing', { body: { status: 'done' }, cookie })],
      ['413', await t.request('POST', '/api/tasks', { body: `{"x":"${'x'.repeat(LIMITS.bodyMaxBytes)}"}`, cookie })],
      ['415', await t.request('POST', '/api/tasks', { body: 'a=b', cookie, headers: { 'content-type': 'text/plain' } })],
      ['429', await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() })],
      ['openapi', await t.request('GET', '/api/openapi.json')],
      ['malformed URL', await t.request('GET', '/api/tasks/%')],
    ];
    for (const [label, res] of answers) {
      expectSecurityHeaders(res, `${label} (${res.status})`);
      if (res.status !== 204) expect(res.headers['content-type'], label).toBe('application/json; charset=utf-8');
    }
    expect(answers.find(([l]) => l === '429')?.[1].status).toBe(429);
  });

  it('on HTML answers: the app shell, a deep link, an asset, the API docs, and the page shown before a build', async () => {
    const notBuilt = await t.request('GET', '/tasks', { headers: { accept: 'text/html' } });
    expect(notBuilt.headers['content-type']).toMatch(/^text\/html/);
    expectSecurityHeaders(notBuilt, 'not built');
    await t.rebuild({}, { webRoot });
    for (const [url, accept] of [
      ['/', 'text/html'],
      ['/tasks', 'text/html'],
      ['/some/deep/link?x=1', 'text/html'],
      ['/assets/app.js', '*/*'],
      ['/api/docs/', 'text/html'],
    ] as const) {
      const res = await t.request('GET', url, { headers: { accept } });
      expect(res.status, url).toBe(200);
      expectSecurityHeaders(res, url);
    }
  });

  it('HSTS only over https', async () => {
    expect((await t.request('GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
    await t.rebuild({ APP_ORIGIN: 'https://tasks.example.com' });
    expect(String((await t.request('GET', '/api/health')).headers['strict-transport-security'])).toMatch(/max-age=\d{8}/);
  });
});

describe('cookies', () => {
  const setCookies = (res: Response) =>
    ([] as (string | number | undefined)[]).concat(res.headers['set-cookie']).filter((c): c is string => typeof c === 'string');

  /** Every Set-Cookie the server sends: sign-in, sliding refresh, sign-out, and the clearing of a dead token. */
  async function everySetCookie(): Promise<string[]> {
    const user = await createUser(t);
    const login = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, ip: nextIp() });
    const cookie = login.sessionCookie!;
    t.clock.advance(SESSION_POLICY.touchIntervalMs + MINUTE);
    const slide = await t.request('GET', '/api/users/me', { cookie });
    const logout = await t.request('POST', '/api/users/logout', { cookie });
    const dead = await t.request('GET', '/api/users/me', { cookie });
    const all = [login, slide, logout, dead].map((r) => setCookies(r));
    for (const [i, list] of all.entries()) expect(list, `answer ${i} sets the session cookie`).toHaveLength(1);
    return all.flat();
  }

  it('over http: HttpOnly, SameSite=Lax, Path=/ on every Set-Cookie; not Secure', async () => {
    for (const c of await everySetCookie()) {
      expect(c).toMatch(new RegExp(`^${SESSION_POLICY.cookieName}=`));
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).toMatch(/; Path=\//);
      expect(c).not.toMatch(/; Secure/);
      expect(c).not.toMatch(/; Domain=/);
    }
  });

  it('under an https APP_ORIGIN: Secure, HttpOnly, SameSite=Lax on every Set-Cookie', async () => {
    await t.rebuild({ APP_ORIGIN: 'https://tasks.example.com' });
    for (const c of await everySetCookie()) {
      expect(c).toMatch(/; Secure/);
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
    }
  });
});

describe('CORS', () => {
  const FRONT = 'https://front.example.com';
  const EVIL = 'https://evil.example';

  it('without CORS_ORIGINS, no answer allows another origin', async () => {
    const { cookie } = await createSignedInUser(t);
    for (const origin of [EVIL, FRONT, TEST_ORIGIN]) {
      const res = await t.request('GET', '/api/tasks', { cookie, headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
  });

  it('with CORS_ORIGINS, only the configured origin is allowed, with credentials, never "*"', async () => {
    await t.rebuild({ CORS_ORIGINS: FRONT });
    const { cookie } = await createSignedInUser(t);
    const preflight = (origin: string) =>
      t.request('OPTIONS', '/api/tasks', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });

    const ok = await preflight(FRONT);
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(FRONT);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(ok.headers.vary)).toMatch(/Origin/i);

    const read = await t.request('GET', '/api/tasks', { cookie, headers: { origin: FRONT } });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(FRONT);
    expect(read.headers['access-control-allow-credentials']).toBe('true');

    for (const origin of [EVIL, 'null', `${FRONT}.evil.example`, 'http://front.example.com', 'https://front.example.com:8443']) {
      const pre = await preflight(origin);
      expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      const res = await t.request('GET', '/api/tasks', { cookie, headers: { origin } });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});

describe('Origin check on state-changing calls (CSRF)', () => {
  const FOREIGN = [
    'https://evil.example',
    'null',
    'http://localhost:3000.evil.example',
    'http://localhost:30000',
    'https://localhost:3000',
    'http://evil.example:3000',
  ];

  it(`every state-changing call from a foreign Origin (${FOREIGN.join(', ')}) is 403 FORBIDDEN_ORIGIN and changes nothing`, async () => {
    const { user, cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    // The task's assignment mail goes out now, not in the middle of the "no mail sent" checks.
    await t.app.outbox.drain();
    for (const origin of FOREIGN) await refusedFrom(origin, user, cookie, task._id);
    // The session survived every forged sign-out.
    expect((await t.request('GET', '/api/users/me', { cookie })).status).toBe(200);
  });

  async function refusedFrom(origin: string, user: { email: string; password: string }, cookie: string, taskId: string) {
    const headers = { origin };
    const email = uniqueEmail();
    const calls: [string, () => Promise<Response>][] = [
      ['POST /api/otps', () => t.request('POST', '/api/otps', { body: { email }, headers, ip: nextIp() })],
      ['POST /api/users/register', () => t.request('POST', '/api/users/register', { body: { email, otp: '123456', fullName: 'X', password: 'a long enough password' }, headers })],
      ['POST /api/users/login', () => t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, headers, ip: nextIp() })],
      ['POST /api/tasks', () => t.request('POST', '/api/tasks', { body: { taskTitle: 'Forged', assignee: email }, cookie, headers })],
      ['PATCH /api/tasks/:id', () => t.request('PATCH', `/api/tasks/${taskId}`, { body: { status: 'done' }, cookie, headers })],
      ['DELETE /api/tasks/:id', () => t.request('DELETE', `/api/tasks/${taskId}`, { cookie, headers })],
      ['GET /api/users/logout', () => t.request('GET', '/api/users/logout', { cookie, headers })],
      ['POST /api/users/logout', () => t.request('POST', '/api/users/logout', { cookie, headers })],
    ];
    for (const [label, call] of calls) {
      const before = await snapshot(t.app.db);
      const sessions = await sessionHashes(t.app.db);
      const mails = t.mail.mails.length;
      const res = await call();
      expect(res.status, `${origin} ${label}: ${res.body}`).toBe(403);
      expect(res.json).toEqual({ status: 'fail', code: 'FORBIDDEN_ORIGIN', message: SERVER_MESSAGES.forbiddenOrigin });
      expect(res.headers['set-cookie'], label).toBeUndefined();
      expect(await snapshot(t.app.db), label).toEqual(before);
      expect(await sessionHashes(t.app.db), label).toEqual(sessions);
      expect(t.mail.mails.length, label).toBe(mails);
    }
  }

  it('our own origins pass: APP_ORIGIN, and the origin the request was addressed to (Host)', async () => {
    const user = await createUser(t);
    const viaAppOrigin = await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password }, headers: { origin: TEST_ORIGIN }, ip: nextIp() });
    expect(viaAppOrigin.status).toBe(200);
    const viaHost = await t.request('POST', '/api/tasks', {
      body: { taskTitle: 'Same origin', assignee: uniqueEmail() },
      cookie: await signIn(t, user),
      headers: { origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' },
    });
    expect(viaHost.status).toBe(201);
  });
});
