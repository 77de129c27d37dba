import { expect } from 'vitest';
import type { ApiToken } from '#shared/schemas/tokens.ts';
import type { RequestOptions, Response, TestApp } from './helpers.ts';

/** The `data` of a tokens answer, typed as the tokens calls shape it. */
export const tokenDataOf = (res: Response) => (res.json as unknown as { data: { token: ApiToken; tokens: ApiToken[]; secret: string } }).data;

/** Creates a token through the API with the session `cookie`; returns it and its secret. */
export async function createToken(
  t: TestApp,
  cookie: string,
  body: { name?: string; access?: 'read' | 'write'; expiresInDays?: number } = {},
): Promise<{ token: ApiToken; secret: string }> {
  const res = await t.request('POST', '/api/tokens', { cookie, body: { name: 'Script', access: 'write', ...body } });
  expect(res.status, res.body).toBe(201);
  return tokenDataOf(res);
}

/** A call signed in with the token `secret` only (no cookie). */
export function withToken(t: TestApp, secret: string) {
  return (method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, options: Omit<RequestOptions, 'cookie'> = {}) =>
    t.request(method, url, { ...options, headers: { authorization: `Bearer ${secret}`, ...options.headers } });
}
