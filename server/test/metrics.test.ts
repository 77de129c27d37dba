import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { isPostgres, useTestApp } from './helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const t = useTestApp({ env: { METRICS_TOKEN: TOKEN } });
const scrape = () => t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });

/** The value of one sample line, e.g. `http_requests_total{method="GET",…} 2`. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`) || (labels === '' && l.startsWith(`${name} `)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('answers 404 when METRICS_TOKEN is not configured', async () => {
    await t.rebuild({ METRICS_TOKEN: '' });
    const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.routeNotFound });
  });

  it('answers 401 without the bearer token, or with another one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.request('GET', '/metrics', authorization === undefined ? {} : { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json).toEqual({ status: 'fail', code: 'NOT_AUTHENTICATED', message: SERVER_MESSAGES.notAuthenticated });
    }
  });

  it('counts requests and their latency per method, route pattern and status', async () => {
    await t.request('GET', '/api/health');
    await t.request('GET', '/api/health');
    await t.request('DELETE', '/api/tasks/abc');
    await t.request('GET', '/api/no-such-thing');

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const health = 'method="GET",route="/api/health",status="200"';
    expect(sample(res.body, 'http_requests_total', health)).toBe(2);
    expect(sample(res.body, 'http_request_duration_seconds_count', health)).toBe(2);
    expect(sample(res.body, 'http_request_duration_seconds_bucket', `le="+Inf",${health}`)).toBe(2);
    // The route pattern, never the raw URL; requests no route matched share one label.
    expect(sample(res.body, 'http_requests_total', 'method="DELETE",route="/api/tasks/:id",status="401"')).toBe(1);
    expect(sample(res.body, 'http_requests_total', 'method="GET",route="unmatched",status="404"')).toBe(1);
    expect(res.body).not.toContain('/api/tasks/abc');
  });

  it('includes the process metrics', async () => {
    const res = await scrape();
    expect(sample(res.body, 'process_cpu_user_seconds_total', '')).toBeGreaterThan(0);
    expect(sample(res.body, 'nodejs_heap_size_used_bytes', '')).toBeGreaterThan(0);
  });

  it('reports open event streams and pending mails', async () => {
    const res = await scrape();
    expect(sample(res.body, 'taskwise_event_streams_open', '')).toBe(0);
    expect(sample(res.body, 'taskwise_outbox_pending_mails', '')).toBe(0);
  });

  it('reads the gauges plugins register when it is scraped', async () => {
    let value = 3;
    t.app.metrics.gauge({ name: 'test_widgets', help: 'Widgets.', collect: (gauge) => {
      gauge.set(value);
    } });
    expect(sample((await scrape()).body, 'test_widgets', '')).toBe(3);
    value = 5;
    expect(sample((await scrape()).body, 'test_widgets', '')).toBe(5);
  });

  it('reports the connection pool on PostgreSQL (SQLite has none)', async () => {
    await t.request('GET', '/api/health');
    const res = await scrape();
    if (isPostgres) {
      expect(sample(res.body, 'taskwise_db_pool_connections', 'state="total"')).toBeGreaterThanOrEqual(1);
      expect(sample(res.body, 'taskwise_db_pool_connections', 'state="waiting"')).toBe(0);
    } else {
      expect(res.body).not.toContain('taskwise_db_pool_connections');
    }
  });
});
