import { vi } from 'vitest';

/**
 * Per-test fetch overrides: each test lists the answers it expects, in the order the calls
 * happen, matched by method and path. Anything unexpected fails loudly. This is deliberately
 * not a mock backend: no state, no logic, just the answers the test needs.
 */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = Response | Error | ((call: Call) => Response | Error | Promise<Response | Error>);

interface Route {
  method: string;
  path: string;
  answer: Answer;
  /** Keep answering (e.g. a list refetched several times) instead of answering once. */
  repeat: boolean;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export const networkError = () => new TypeError('Failed to fetch');

const PROVIDERS_PATH = '/api/auth/providers';

export function mockFetch() {
  const routes: Route[] = [];
  const calls: Call[] = [];

  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const rawBody = init?.body;
    const body: unknown = typeof rawBody === 'string' ? JSON.parse(rawBody) : undefined;
    const call: Call = { method, path: url.pathname, query: url.searchParams, body };
    // The sign-in and sign-up pages ask which sign-in providers there are: none, unless the test says.
    if (url.pathname === PROVIDERS_PATH && !routes.some((r) => r.path === PROVIDERS_PATH)) {
      return json(200, { status: 'success', data: { providers: [], error: null } });
    }
    calls.push(call);
    const index = routes.findIndex((r) => r.method === method && r.path === url.pathname);
    const route = routes[index];
    if (!route) throw new Error(`Unexpected request: ${method} ${url.pathname}${url.search}`);
    if (!route.repeat) routes.splice(index, 1);
    const answer = typeof route.answer === 'function' ? await route.answer(call) : route.answer;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  });

  const api = {
    calls,
    spy,
    /** Answer the next `METHOD /api/path` call once. */
    on(method: string, path: string, answer: Answer) {
      routes.push({ method, path: `/api${path}`, answer, repeat: false });
      return api;
    },
    /** Answer every `METHOD /api/path` call. */
    always(method: string, path: string, answer: Answer) {
      routes.push({ method, path: `/api${path}`, answer, repeat: true });
      return api;
    },
    callsTo(method: string, path: string): Call[] {
      return calls.filter((c) => c.method === method && c.path === `/api${path}`);
    },
  };
  return api;
}
