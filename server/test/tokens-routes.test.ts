import { describe, expect, it } from 'vitest';
import { TOKEN_MESSAGES } from '#shared/schemas/tokens.ts';
import { createSignedInUser } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { createToken, withToken } from './tokens-support.ts';

/**
 * Which calls an API token may make is set on the routes themselves (`config.apiTokens`,
 * plugins/session.ts). This file walks every signed-in call of the OpenAPI document (built from
 * the route table), so a new route is checked the moment it exists.
 */
const t = useTestApp();

/** The calls no token may make: managing tokens, the password, two-step sign-in, sessions, push subscriptions, the account. */
const FORBIDDEN = [
  'DELETE /api/account/identities/{provider}',
  'DELETE /api/account/passkeys/{id}',
  'DELETE /api/push/subscriptions',
  'DELETE /api/tokens/{id}',
  'DELETE /api/users/me',
  'GET /api/account/identities',
  'GET /api/account/passkeys',
  'GET /api/account/two-step',
  'GET /api/tokens',
  'GET /api/users/me/export',
  'PATCH /api/account/passkeys/{id}',
  'PATCH /api/users/me',
  'POST /api/account/identities/{provider}',
  'POST /api/account/passkeys',
  'POST /api/account/passkeys/options',
  'POST /api/account/two-step/confirm',
  'POST /api/account/two-step/disable',
  'POST /api/account/two-step/recovery-codes',
  'POST /api/account/two-step/setup',
  'POST /api/push/subscriptions',
  'POST /api/tokens',
  'POST /api/users/logout-all',
  'POST /api/users/me/password',
];

/** Paths where every call manages credentials or the account: a new route here must refuse tokens. */
const ACCOUNT_PATHS = [/^\/api\/account\/identities(\/|$)/, /^\/api\/account\/passkeys(\/|$)/, /^\/api\/account\/two-step(\/|$)/, /^\/api\/tokens(\/|$)/, /^\/api\/push\/subscriptions(\/|$)/, /^\/api\/users\/me\/password(\/|$)/, /^\/api\/users\/logout-all$/];

interface Operation {
  security?: Record<string, string[]>[];
}

async function signedInCalls(): Promise<{ call: string; method: string; path: string; operation: Operation }[]> {
  const doc = await t.request('GET', '/api/openapi.json');
  return Object.entries(doc.json.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>)
      .filter(([, operation]) => operation.security?.some((s) => 'session' in s) === true)
      .map(([method, operation]) => ({ call: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
  );
}

describe('which calls an API token may make', () => {
  it('refuses exactly the account calls, and every call under an account path', async () => {
    const calls = await signedInCalls();
    const forbidden = calls.filter((c) => c.operation.security?.some((s) => 'apiToken' in s) !== true).map((c) => c.call);
    expect(forbidden.sort()).toEqual(FORBIDDEN);
    const underAccountPaths = calls.filter((c) => ACCOUNT_PATHS.some((re) => re.test(c.path))).map((c) => c.call);
    expect(underAccountPaths.filter((call) => !FORBIDDEN.includes(call))).toEqual([]);
    // Only one call under /api/users/me is open to tokens: who am I.
    expect(calls.filter((c) => c.path === '/api/users/me' && !FORBIDDEN.includes(c.call)).map((c) => c.call)).toEqual(['GET /api/users/me']);
  });

  it('answers 403 TOKEN_NOT_ALLOWED to a read or a write token on each refused call, and lets every other call through', async () => {
    const { cookie } = await createSignedInUser(t);
    const write = withToken(t, (await createToken(t, cookie, { access: 'write' })).secret);
    const read = withToken(t, (await createToken(t, cookie, { access: 'read' })).secret);
    const calls = await signedInCalls();
    expect(calls.length).toBeGreaterThan(FORBIDDEN.length);
    for (const { call, method, path } of calls) {
      // The live stream never ends by itself; tokens-events.test.ts opens it.
      if (call === 'GET /api/events') continue;
      const url = path.replace(/\{[^}]+\}/g, 'no-such-id');
      const verb = method as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      const res = await write(verb, url, verb === 'GET' ? {} : { body: {} });
      if (FORBIDDEN.includes(call)) {
        expect(res.status, call).toBe(403);
        expect(res.json, call).toEqual({ status: 'fail', code: 'TOKEN_NOT_ALLOWED', message: TOKEN_MESSAGES.notAllowed });
        const byRead = await read(verb, url, verb === 'GET' ? {} : { body: {} });
        expect(byRead.json.code, call).toBe('TOKEN_NOT_ALLOWED');
      } else {
        // Signed in: whatever the call then says about the (made-up) input, it is not about the token.
        expect([401, 403].includes(res.status) && ['NOT_AUTHENTICATED', 'TOKEN_NOT_ALLOWED', 'TOKEN_READ_ONLY'].includes(res.json.code), `${call}: ${res.body}`).toBe(false);
      }
    }
    // The account is unchanged: the tokens still work and the session too.
    expect((await write('GET', '/api/users/me')).status).toBe(200);
    expect((await t.request('GET', '/api/users/me', { cookie })).status).toBe(200);
  });

  it('finds every call that needs a sign-in (each declares the session security the walk above goes by)', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    const declared = new Set((await signedInCalls()).map((c) => c.call));
    const undeclared: string[] = [];
    for (const [path, methods] of Object.entries(doc.json.paths)) {
      for (const method of Object.keys(methods)) {
        const call = `${method.toUpperCase()} ${path}`;
        const res = await t.request(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'no-such-id'));
        if (res.status === 401 && res.json.code === 'NOT_AUTHENTICATED' && !declared.has(call)) undeclared.push(call);
      }
    }
    expect(undeclared).toEqual([]);
    expect(declared.size).toBeGreaterThan(30);
  });

  it('documents the token as a way to sign in (apiToken security scheme)', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    const schemes = (doc.json as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes;
    expect(schemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const calls = Object.entries(doc.json.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(calls).toEqual(expect.arrayContaining(['GET /api/tokens', 'POST /api/tokens', 'DELETE /api/tokens/{id}']));
  });
});
