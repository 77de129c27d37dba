import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, nextIp, uniqueEmail } from './factories.ts';
import { TEST_ORIGIN, useTestApp } from './helpers.ts';

const t = useTestApp({ env: { CORS_ORIGINS: 'https://board.example.org' } });

describe('request bodies', () => {
  it('answers 413 PAYLOAD_TOO_LARGE above 16 KB', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tasks', {
      cookie,
      body: { taskTitle: 'Big', assignee: uniqueEmail(), workTitle: 'x'.repeat(17 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ status: 'fail', code: 'PAYLOAD_TOO_LARGE', message: SERVER_MESSAGES.payloadTooLarge });
  });

  it.each([
    ['text/plain', 'email=a@example.com'],
    ['application/x-www-form-urlencoded', 'email=a%40example.com'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--'],
  ])('answers 415 UNSUPPORTED_MEDIA_TYPE to a %s body', async (type, payload) => {
    const res = await t.request('POST', '/api/otps', { body: payload, headers: { 'content-type': type }, ip: nextIp() });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({
      status: 'fail',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: SERVER_MESSAGES.unsupportedMediaType,
    });
  });

  it('answers 415 to a body without a content type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/otps', payload: Buffer.from('{"email":"a@example.com"}') });
    expect(res.statusCode).toBe(415);
  });

  it('answers 415 on task writes too (signed in)', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tasks', {
      cookie,
      body: 'taskTitle=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });

  it('answers 400 MALFORMED_JSON to broken JSON', async () => {
    const res = await t.request('POST', '/api/otps', { body: '{"email": ', ip: nextIp() });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ status: 'fail', code: 'MALFORMED_JSON', message: SERVER_MESSAGES.malformedJson });
  });

  it('answers 400 to a __proto__ key rather than letting it through', async () => {
    const res = await t.request('POST', '/api/otps', { body: '{"email":"a@example.com","__proto__":{"x":1}}', ip: nextIp() });
    expect(res.status).toBe(400);
    expect(res.json.status).toBe('fail');
  });

  it('refuses NUL characters in text with 400 naming the field', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Nul \u0000 here', assignee: uniqueEmail() } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'taskTitle', message: 'Text must not contain NUL characters.' }]);
  });

  it('refuses text that is not valid Unicode (a lone surrogate) with 400 naming the field', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/tasks', { cookie, body: '{"taskTitle":"Lone \\ud800 one","assignee":"someone@example.test"}' });
    expect(res.status, res.body).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'taskTitle', message: 'Text must be valid Unicode.' }]);
  });

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"hello"'],
    ['null', 'null'],
  ])('answers 400 VALIDATION_FAILED when the body is %s', async (_name, payload) => {
    const res = await t.request('POST', '/api/otps', { body: payload, ip: nextIp() });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
  });
});

describe('Origin check', () => {
  const otp = (origin: string, headers: Record<string, string> = {}) =>
    t.request('POST', '/api/otps', { body: { email: uniqueEmail() }, headers: { origin, ...headers }, ip: nextIp() });

  it('refuses a foreign Origin with 403 FORBIDDEN_ORIGIN', async () => {
    const res = await otp('https://evil.example');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ status: 'fail', code: 'FORBIDDEN_ORIGIN', message: SERVER_MESSAGES.forbiddenOrigin });
    const signedIn = await createSignedInUser(t);
    const get = await t.request('GET', '/api/tasks', { cookie: signedIn.cookie, headers: { origin: 'null' } });
    expect(get.status).toBe(403);
  });

  it('accepts APP_ORIGIN, the request own origin, and CORS_ORIGINS', async () => {
    expect((await otp(TEST_ORIGIN)).status).toBe(201);
    expect((await otp('http://192.168.1.20:3000', { host: '192.168.1.20:3000' })).status).toBe(201);
    expect((await otp('https://board.example.org')).status).toBe(201);
  });

  it('lets requests without Origin through (non-browser clients)', async () => {
    expect((await t.request('POST', '/api/otps', { body: { email: uniqueEmail() }, ip: nextIp() })).status).toBe(201);
  });

  it('answers CORS preflights for CORS_ORIGINS with credentials, and not for others', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/tasks',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight('https://board.example.org');
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://board.example.org');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const refused = await preflight('https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('unknown routes and failures', () => {
  it('answers 404 NOT_FOUND JSend under /api', async () => {
    for (const [method, url] of [['GET', '/api/nothing-here'], ['PUT', '/api/tasks/abc'], ['GET', '/api']] as const) {
      const res = await t.request(method, url, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.routeNotFound });
    }
  });

  it('answers 500 INTERNAL_ERROR without internals when something breaks', async () => {
    const { cookie } = await createSignedInUser(t);
    t.app.tasksRepository.list = () => Promise.reject(new Error('SQLITE_ERROR: no such column: secret_stuff at /srv/app/repo.ts:12'));
    const res = await t.request('GET', '/api/tasks', { cookie });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ status: 'error', code: 'INTERNAL_ERROR', message: SERVER_MESSAGES.internalError });
    expect(res.body).not.toMatch(/sqlite|secret|stack|\.ts/i);
  });

  it('answers 503 SERVICE_UNAVAILABLE while the database is unreachable', async () => {
    const { cookie } = await createSignedInUser(t);
    await t.app.db.destroy();
    const res = await t.request('GET', '/api/users/me', { cookie });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'error', code: 'SERVICE_UNAVAILABLE', message: SERVER_MESSAGES.serviceUnavailable });
  });

  it('answers a malformed URL with the JSend 404 and the security headers', async () => {
    const res = await t.request('GET', '/api/tasks/%');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.routeNotFound });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('security headers', () => {
  it('sends CSP without inline scripts, nosniff, frame denial and a referrer policy', async () => {
    const res = await t.request('GET', '/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
