/**
 * Child-process and browser helpers shared by the API tests (server/test/), the browser tests
 * (e2e/) and the benchmarks (bench/), which all start the real server, and Debian's Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** Flags Chromium needs on this machine's closed network (never a downloaded browser). */
export const chromeArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => {
    resolve();
  }));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

function exited(child: ChildProcess): Promise<void> {
  return running(child)
    ? new Promise((resolve) => child.once('exit', () => {
      resolve();
    }))
    : Promise.resolve();
}

/** SIGTERM (the server drains in-flight requests), then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (!running(child)) return;
  child.kill('SIGTERM');
  await Promise.race([exited(child), delay(graceMs, undefined, { ref: false })]);
  if (running(child)) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** What it printed so far: captured in memory, or the end of its log file. */
  output(): string;
  /** Resolves once the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGTERM: the server drains first), SIGKILL after `graceMs`, waits for the exit. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface ServerProcessOptions {
  /** Added to the environment (after HOST, PORT and APP_ORIGIN, so it may override them). */
  env: Record<string, string>;
  /** The environment to start from (e.g. `process.env`); default PATH only. */
  baseEnv?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Default `server/server.ts`, what `npm start` runs after its build step. */
  script?: string;
  nodeFlags?: string[];
  /** Append stdout and stderr to this file; without it they are kept in memory. */
  logFile?: string;
  /**
   * The host name of APP_ORIGIN (and `url`), default `127.0.0.1`. WebAuthn refuses an IP address
   * as its relying party ID: the passkey browser test uses `localhost` (which resolves to the same
   * loopback address the server listens on).
   */
  originHost?: string;
  /** How long to wait for `GET /api/health` to answer 200. */
  startTimeoutMs?: number;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function tailOf(path: string, lines = 40): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts a server script (the real `node server/server.ts` by default) on 127.0.0.1 and a free
 * port, configured by environment only, and resolves once `/api/health` answers 200. The one
 * way tests, browser tests and benchmarks run a server as a child process.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://${options.originHost ?? '127.0.0.1'}:${port}`;
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), options.script ?? 'server/server.ts'], {
    cwd: options.cwd ?? repoRoot,
    env: {
      ...(options.baseEnv ?? { PATH: process.env.PATH ?? '' }),
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_ORIGIN: url,
      ...options.env,
    },
    stdio: ['ignore', log ?? 'pipe', log ?? 'pipe'],
  });
  if (log !== undefined) closeSync(log);
  let captured = '';
  child.stdout?.on('data', (c: Buffer) => (captured += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (captured += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const output = () => (options.logFile === undefined ? captured : tailOf(options.logFile));
  const server: ServerProcess = {
    url,
    port,
    process: child,
    output,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (running(child)) child.kill(signal);
      await Promise.race([exited, delay(graceMs, undefined, { ref: false })]);
      if (running(child)) child.kill('SIGKILL');
      await exited;
    },
  };

  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!running(child)) {
      await exited;
      throw new Error(`The server exited (${String(child.exitCode ?? child.signalCode)}) before it was healthy:\n${output()}`);
    }
    try {
      // Asked at the address it listens on, whatever host name its origin uses.
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return server;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await delay(100);
  }
  await server.stop('SIGKILL');
  throw new Error(`${url}/api/health did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${output()}`);
}
