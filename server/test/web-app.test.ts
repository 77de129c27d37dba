import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';

const t = useTestApp();
const html = { accept: 'text/html,application/xhtml+xml' };

describe('without a web build', () => {
  it('answers HTML requests with a page saying the web app is not built', async () => {
    for (const url of ['/', '/tasks']) {
      const res = await t.request('GET', url, { headers: html });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('The web app is not built yet');
    }
  });
});

describe('with a web build', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'taskwise-web-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Taskwise</title><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'index-4f3a2b1c.js'), 'console.log("app")');
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(root, 'sw.js'), 'self.addEventListener("push", () => {});');
    writeFileSync(join(root, 'manifest.webmanifest'), '{"name":"Taskwise"}');
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const rebuild = () => t.rebuild({}, { webRoot: root });

  it('serves index.html at / and for deep links, revalidated on every load', async () => {
    await rebuild();
    for (const url of ['/', '/tasks', '/sign-up?x=1', '/some/deep/link']) {
      const res = await t.request('GET', url, { headers: html });
      expect(res.status, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    await rebuild();
    const res = await t.request('GET', '/assets/index-4f3a2b1c.js');
    expect(res.status).toBe(200);
    expect(res.body).toBe('console.log("app")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.request('GET', '/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('serves the service worker revalidated on every check, as JavaScript', async () => {
    await rebuild();
    const res = await t.request('GET', '/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
  });

  it('serves the web app manifest as application/manifest+json, revalidated', async () => {
    await rebuild();
    const res = await t.request('GET', '/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe('{"name":"Taskwise"}');
  });

  it('allows the service worker and the manifest from its own origin only (CSP)', async () => {
    await rebuild();
    const directives = String((await t.request('GET', '/', { headers: html })).headers['content-security-policy']).split(/;\s*/);
    expect(directives).toContain("worker-src 'self'");
    expect(directives).toContain("manifest-src 'self'");
  });

  it('answers 404 to a missing asset and to unknown /api paths, even for HTML requests', async () => {
    await rebuild();
    expect((await t.request('GET', '/assets/missing-123.js')).status).toBe(404);
    const api = await t.request('GET', '/api/unknown', { headers: html });
    expect(api.status).toBe(404);
    expect(api.json.code).toBe('NOT_FOUND');
    // Any method, any depth, a wrong method on a real path, and /api itself: the same JSend 404.
    for (const [method, url] of [['POST', '/api/unknown/deeper'], ['DELETE', '/api/health'], ['PUT', '/api'], ['GET', '/api?x=1']] as const) {
      const res = await t.request(method, url, { headers: html });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.json, `${method} ${url}`).toMatchObject({ status: 'fail', code: 'NOT_FOUND' });
    }
  });

  it('never serves files outside the build', async () => {
    await rebuild();
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/..%5c..%5cpackage.json']) {
      const res = await t.request('GET', url);
      expect(res.body, url).not.toContain('"name": "taskwise"');
      expect(res.status, url).toBeGreaterThanOrEqual(400);
    }
  });
});
