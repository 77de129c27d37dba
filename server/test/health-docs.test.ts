import { describe, expect, it } from 'vitest';
import { anyString, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('GET /api/health', () => {
  it('answers 200 when the database answers', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', data: { database: 'ok' } });
  });

  it('answers 503 when the database does not', async () => {
    await t.app.db.destroy();
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'error', code: 'SERVICE_UNAVAILABLE', message: anyString });
  });
});

describe('API documentation', () => {
  it('serves the OpenAPI 3 document with every call', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toMatch(/^3\./);
    const paths = res.json.paths;
    const calls = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    // The calls every version has; each feature's own test file checks its calls are there too.
    expect(calls).toEqual(
      expect.arrayContaining([
        'DELETE /api/tasks/{id}',
        'GET /api/events',
        'GET /api/health',
        'GET /api/tasks',
        'GET /api/tasks/counts',
        'GET /api/tasks/{id}',
        'GET /api/users/logout',
        'GET /api/users/me',
        'GET /api/users/me/settings',
        'PATCH /api/users/me/settings',
        'POST /api/unsubscribe',
        'GET /metrics',
        'PATCH /api/tasks/{id}',
        'POST /api/otps',
        'POST /api/tasks',
        'POST /api/users/login',
        'POST /api/users/logout',
        'POST /api/users/register',
      ]),
    );
  });

  it('describes every call: a summary, a description and a tag on each', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    const undocumented = Object.entries(res.json.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { summary?: string; description?: string; tags?: string[] }>)
        .filter(([, operation]) => !operation.summary || !operation.description || operation.tags?.length !== 1)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('serves the browsable page at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });
});
