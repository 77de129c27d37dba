import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, networkError, noContent } from '#web/testing/fetch.ts';
import { ApiError, apiRequest, NETWORK_ERROR, onUnauthorized } from './api-client.ts';

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

describe('apiRequest', () => {
  it('sends JSON with cookies to /api and returns the envelope', async () => {
    const api = mockFetch().on('POST', '/things', json(201, { status: 'success', message: 'made' }));
    await expect(apiRequest('/things', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ status: 'success', message: 'made' });
    const [, init] = api.spy.mock.calls[0] ?? [];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(api.calls[0]?.body).toEqual({ a: 1 });
  });

  it('drops empty query values', async () => {
    const api = mockFetch().on('GET', '/tasks', json(200, { status: 'success' }));
    await apiRequest('/tasks', { query: { status: 'todo', priority: undefined, cursor: null, limit: 50 } });
    expect(api.calls[0]?.query.toString()).toBe('status=todo&limit=50');
  });

  it('throws ApiError with status, code and message for a fail envelope', async () => {
    mockFetch().on('POST', '/x', json(400, { status: 'fail', code: 'VALIDATION_FAILED', message: 'Bad.', errors: [{ field: 'a', message: 'b' }] }));
    const error = await apiRequest('/x', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Bad.', errors: [{ field: 'a', message: 'b' }] });
  });

  it('treats a 200 without status "success" as a failure, with the fallback message', async () => {
    mockFetch().on('GET', '/x', json(200, { status: 'fail' }));
    await expect(apiRequest('/x', { fallbackMessage: 'Nope' })).rejects.toMatchObject({ status: 200, message: 'Nope' });
  });

  it('reads Retry-After in seconds', async () => {
    mockFetch().on('POST', '/otps', json(429, { status: 'fail', code: 'RATE_LIMITED', message: 'Slow down.' }, { 'Retry-After': '42' }));
    await expect(apiRequest('/otps', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 429, retryAfter: 42 });
  });

  it('turns a network failure into ApiError status 0', async () => {
    mockFetch().on('GET', '/x', networkError());
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR, isNetworkError: true });
  });

  it('turns an answer that breaks off after its headers into ApiError status 0 too', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"succ'));
        controller.error(new TypeError('Failed to fetch'));
      },
    });
    mockFetch().on('GET', '/users/me', new Response(broken, { status: 200, headers: { 'Content-Type': 'application/json' } }));
    const error = await apiRequest('/users/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).code).toBe(NETWORK_ERROR);
  });

  it('with expectNoContent, succeeds on 204 only', async () => {
    mockFetch()
      .on('DELETE', '/t/1', noContent())
      .on('DELETE', '/t/2', json(200, { status: 'success', message: 'odd' }))
      .on('DELETE', '/t/3', new Response('not json', { status: 500 }));
    await expect(apiRequest('/t/1', { method: 'DELETE', expectNoContent: true })).resolves.toBeUndefined();
    await expect(apiRequest('/t/2', { method: 'DELETE', expectNoContent: true, fallbackMessage: 'F' })).rejects.toMatchObject({ message: 'odd' });
    await expect(apiRequest('/t/3', { method: 'DELETE', expectNoContent: true, fallbackMessage: 'F' })).rejects.toMatchObject({ status: 500, message: 'F' });
  });

  it('reports a 401 on authenticated calls to the one handler, and not on others', async () => {
    const handler = vi.fn();
    unregister = onUnauthorized(handler);
    const fail = () => json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in.' });
    mockFetch().on('GET', '/tasks', fail()).on('POST', '/users/login', fail());
    await expect(apiRequest('/tasks')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    await expect(apiRequest('/users/login', { method: 'POST', body: {}, authenticated: false })).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('lets an abort through unchanged', async () => {
    mockFetch().on('GET', '/slow', () => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(apiRequest('/slow')).rejects.toMatchObject({ name: 'AbortError' });
  });
});
