/**
 * HTTP load with autocannon, in this (the orchestrator's) process, plus the server's RSS.
 * Latency percentiles are computed here from autocannon's per-response timings (float ms),
 * because its own histogram rounds to whole milliseconds, too coarse at one connection.
 * Only 2xx answers count as successes; everything else is an error, reported by status.
 */
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { cpuTimeOf, sampleRss } from './servers.ts';

export interface LoadRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  /** Total number of requests instead of a duration. */
  amount?: number;
  /** Cycled through by every connection. */
  requests: LoadRequest[];
  /** Optional: a connection's own request cycle (by connection number), instead of `requests`. */
  requestsFor?: (connection: number) => LoadRequest[];
  /** Server whose RSS is sampled during the run. */
  pid: number;
}

export interface LoadResult {
  connections: number;
  /** 2xx answers per second. */
  rps: number;
  p50: number;
  p99: number;
  /** 2xx answers. */
  ok: number;
  /** Non-2xx answers plus socket errors and timeouts. */
  errors: number;
  /** e.g. { "429": 3 } for every non-2xx status, plus "socket" for connection errors. */
  errorKinds: Record<string, number>;
  seconds: number;
  /** Peak resident set size of the server during the run, bytes. */
  rss: number;
  /** Server CPU time (user + system) per answered request, ms: robust to other load. */
  cpuPerRequest: number;
  /** 2xx latencies, ms (for combining rounds). */
  samples: Samples;
  /** How many runs were combined into this result. */
  rounds: number;
}

export class Samples {
  #values = new Float64Array(16_384);
  #length = 0;

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    this.#values[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  values(): Float64Array {
    return this.#values.subarray(0, this.#length);
  }

  static merge(all: readonly Samples[]): Samples {
    const merged = new Samples();
    for (const s of all) for (const v of s.values()) merged.push(v);
    return merged;
  }

  percentile(p: number): number {
    if (this.#length === 0) return Number.NaN;
    const sorted = this.#values.slice(0, this.#length).sort();
    return sorted[Math.min(this.#length - 1, Math.ceil((p / 100) * this.#length) - 1)]!;
  }
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const samples = new Samples();
  const rss = sampleRss(opts.pid);
  const cpuBefore = cpuTimeOf(opts.pid);
  const started = performance.now();
  const toAutocannon = (r: LoadRequest) => ({
    method: r.method ?? 'GET',
    path: r.path,
    headers: { ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers },
    ...(r.body === undefined ? {} : { body: r.body }),
  });
  let connection = 0;
  const requestsFor = opts.requestsFor;
  const instance = autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    ...(opts.amount === undefined ? { duration: opts.duration ?? 5 } : { amount: opts.amount }),
    requests: opts.requests.map(toAutocannon),
    ...(requestsFor === undefined
      ? {}
      : {
          setupClient: (client) => {
            client.setRequests(requestsFor(connection++).map(toAutocannon));
          },
        }),
    timeout: 30,
  });
  let lastResponse = started;
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    lastResponse = performance.now();
    if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
  });
  let result;
  let rssPeak: number;
  try {
    result = await instance;
  } finally {
    rssPeak = rss.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuTimeOf(opts.pid) - cpuBefore;
  const errorKinds: Record<string, number> = {};
  let ok = 0;
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    if (status.startsWith('2')) ok += Number(count);
    else errorKinds[status] = Number(count);
  }
  if (result.errors > 0) errorKinds.socket = result.errors;
  const errors = Object.values(errorKinds).reduce((a, b) => a + b, 0);
  return {
    connections: opts.connections,
    // A fixed amount ends on autocannon's next one-second tick: time it to the last answer.
    rps: ok / (opts.amount === undefined ? result.duration : (lastResponse - started) / 1000),
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    ok,
    errors,
    errorKinds,
    seconds,
    rss: rssPeak,
    cpuPerRequest: cpu / Math.max(1, ok + errors),
    samples,
    rounds: 1,
  };
}

/**
 * Several rounds of the same case as one result: req/s is the median of the rounds (a burst of
 * other work on the shared machine spoils one round, not the figure), latency percentiles come
 * from all rounds' samples together, errors are added up, RSS is the highest.
 */
export function combineRounds(results: readonly LoadResult[]): LoadResult {
  const first = results[0];
  if (first === undefined) throw new Error('no rounds to combine');
  const samples = Samples.merge(results.map((r) => r.samples));
  const errorKinds: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + n;
  const rpsSorted = results.map((r) => r.rps).sort((a, b) => a - b);
  const mid = rpsSorted.length >> 1;
  return {
    connections: first.connections,
    rps: rpsSorted.length % 2 === 1 ? rpsSorted[mid]! : (rpsSorted[mid - 1]! + rpsSorted[mid]!) / 2,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    ok: results.reduce((n, r) => n + r.ok, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    errorKinds,
    seconds: results.reduce((n, r) => n + r.seconds, 0),
    rss: Math.max(...results.map((r) => r.rss)),
    cpuPerRequest: results.reduce((n, r) => n + r.cpuPerRequest * (r.ok + r.errors), 0) / Math.max(1, results.reduce((n, r) => n + r.ok + r.errors, 0)),
    samples,
    rounds: results.length,
  };
}

export function describeErrors(result: LoadResult): string {
  const kinds = Object.entries(result.errorKinds);
  if (kinds.length === 0) return '0';
  return `${result.errors} (${kinds.map(([k, n]) => `${n}× ${k}`).join(', ')})`;
}

/** Signs in through the API; returns the Cookie header value of the new session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: HTTP ${res.status} ${text}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('taskwise_session='));
  if (cookie === undefined) throw new Error(`sign-in of ${email} set no session cookie`);
  return cookie.split(';')[0]!;
}

/** GET as JSON with a cookie; throws on non-2xx. */
export async function getJson(baseUrl: string, path: string, cookie: string): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300) throw new Error(`GET ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

/**
 * One connection, one request after the other (keep-alive), each timed on its own: for latency
 * at a single connection without autocannon's whole-second run boundaries. Stops after `count`
 * answers or `seconds`, whichever comes first; non-2xx answers are counted as errors.
 */
export async function timeSequential(opts: {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  count: number;
  seconds: number;
  /** GET unless given; a body is sent as JSON. */
  method?: string;
  body?: string;
  /** Instead of `path` and `body`: the call number `i`'s own (e.g. a write that must change something each time). */
  each?: (i: number) => { path?: string; body?: string };
}): Promise<{ p50: number; p95: number; p99: number; ok: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(opts.path, opts.baseUrl);
  const samples = new Samples();
  let errors = 0;
  const deadline = performance.now() + opts.seconds * 1000;
  try {
    for (let i = 0; i < opts.count && performance.now() < deadline; i++) {
      const call = opts.each?.(i) ?? {};
      const body = call.body ?? opts.body;
      const target = call.path === undefined ? url : new URL(call.path, opts.baseUrl);
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const headers = body === undefined ? opts.headers : { ...opts.headers, 'content-type': 'application/json' };
        const req = request(target, { agent, method: opts.method ?? 'GET', headers }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            resolve(res.statusCode ?? 0);
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
      if (status >= 200 && status < 300) samples.push(performance.now() - t0);
      else errors++;
    }
  } finally {
    agent.destroy();
  }
  return { p50: samples.percentile(50), p95: samples.percentile(95), p99: samples.percentile(99), ok: samples.length, errors };
}
