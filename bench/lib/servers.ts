/**
 * Child processes of a benchmark: the real Taskwise server started the way `npm start` starts
 * it (`node server/server.ts`, configured by environment only) and the bare baseline server,
 * each on a free port of 127.0.0.1. Every started process is tracked, so the runner can stop
 * whatever a failing suite left behind (`stopAllServers`), by PID, never by name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, running, stopChild } from '../../scripts/lib/processes.ts';
import { repoRoot } from './env.ts';

export interface RunningServer {
  /** "taskwise" or "baseline". */
  kind: 'taskwise' | 'baseline';
  baseUrl: string;
  pid: number;
  logPath: string;
  /** Resident set size now, in bytes (0 when the process is gone). */
  rss(): number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

export { freePort };

async function stopTracked(child: ChildProcess): Promise<void> {
  await stopChild(child, 15_000);
  live.delete(child);
}

/** Stops every child process a benchmark started and did not stop (runner clean-up). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...live].map(stopTracked));
}

/** Synchronous last resort on process exit: SIGKILL whatever is still running. */
export function killAllServersNow(): void {
  for (const child of live) {
    if (running(child)) child.kill('SIGKILL');
  }
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kbText = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kbText === undefined ? 0 : Number(kbText) * 1024;
  } catch {
    return 0;
  }
}

function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!running(child)) throw new Error(`server exited (${String(child.exitCode ?? child.signalCode)}) before it was healthy. Log:\n${tail(logPath)}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await delay(100);
  }
  throw new Error(`${baseUrl}/api/health did not answer 200 within ${timeoutMs} ms (last: ${last}). Log:\n${tail(logPath)}`);
}

export interface StartOptions {
  databaseUrl: string;
  /** Directory for the log file (and CPU profiles). */
  dir: string;
  /** Log file name stem. */
  name: string;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=…']. */
  nodeFlags?: string[];
  env?: Record<string, string>;
}

async function start(kind: RunningServer['kind'], script: string, opts: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logPath = join(opts.dir, `${opts.name}.log`);
  const log = openSync(logPath, 'a');
  // The environment an operator's `npm start` sees: what the shell has, plus the settings an
  // operator gives. Logging and NODE_ENV stay at their defaults (info level, request log on),
  // whatever the shell running the benchmark has set.
  const { LOG_LEVEL: _level, LOG_FORMAT: _format, NODE_ENV: _env, ...inherited } = process.env;
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), script], {
    cwd: repoRoot,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      APP_ORIGIN: baseUrl,
      // Given explicitly so the server does not write one into ./data/.
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ...opts.env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  live.add(child);
  try {
    await waitForHealth(baseUrl, child, logPath, 60_000);
  } catch (error) {
    await stopTracked(child);
    throw error;
  }
  const pid = child.pid ?? 0;
  return {
    kind,
    baseUrl,
    pid,
    logPath,
    rss: () => rssOf(pid),
    stop: () => stopTracked(child),
  };
}

/**
 * `node server/server.ts`, as `npm start` runs it once its build check has passed (the runner
 * makes the same check first, scripts/lib/web-build.ts): default log level, request log on.
 */
export function startTaskwise(opts: StartOptions): Promise<RunningServer> {
  return start('taskwise', 'server/server.ts', opts);
}

/** `node bench/baseline-server.ts`: node:http + node:sqlite / pg, its own SQL, no framework, no log. */
export function startBaseline(opts: StartOptions): Promise<RunningServer> {
  return start('baseline', 'bench/baseline-server.ts', opts);
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 when gone). */
export function cpuTimeOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/** Samples a process's RSS every `everyMs` until stopped; returns the peak. */
export function sampleRss(pid: number, everyMs = 200): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}
