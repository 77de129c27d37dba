/**
 * Child processes of a benchmark: the real Taskwise server started the way `npm start` starts
 * it (`node server/server.ts`, configured by environment only) and the bare baseline server,
 * each on a free port of 127.0.0.1. Every started process is tracked, so the runner can stop
 * whatever a failing suite left behind (`stopAllServers`), by PID, never by name.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, running, startServerProcess, type ServerProcess } from '../../scripts/lib/processes.ts';
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

const live = new Set<ServerProcess>();

export { freePort };

async function stopTracked(server: ServerProcess): Promise<void> {
  await server.stop('SIGTERM', 15_000);
  live.delete(server);
}

/** Stops every child process a benchmark started and did not stop (runner clean-up). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...live].map(stopTracked));
}

/** Synchronous last resort on process exit: SIGKILL whatever is still running. */
export function killAllServersNow(): void {
  for (const server of live) {
    if (running(server.process)) server.process.kill('SIGKILL');
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
  const logPath = join(opts.dir, `${opts.name}.log`);
  // The environment an operator's `npm start` sees: what the shell has, plus the settings an
  // operator gives. Logging and NODE_ENV stay at their defaults (info level, request log on),
  // whatever the shell running the benchmark has set.
  const { LOG_LEVEL: _level, LOG_FORMAT: _format, NODE_ENV: _env, ...inherited } = process.env;
  const server = await startServerProcess({
    script,
    cwd: repoRoot,
    baseEnv: inherited,
    logFile: logPath,
    ...(opts.nodeFlags === undefined ? {} : { nodeFlags: opts.nodeFlags }),
    env: {
      DATABASE_URL: opts.databaseUrl,
      // Given explicitly so the server does not write one into ./data/.
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ...opts.env,
    },
  });
  live.add(server);
  const pid = server.process.pid ?? 0;
  return {
    kind,
    baseUrl: server.url,
    pid,
    logPath,
    rss: () => rssOf(pid),
    stop: () => stopTracked(server),
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
  return statCpu(`/proc/${pid}/stat`)?.ms ?? 0;
}

/** A /proc …/stat file's command name and CPU time (user + system, ms); undefined when it is gone. */
function statCpu(path: string): { name: string; ms: number } | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the parenthesised command name: utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/**
 * CPU time so far of a process's threads by thread name, ms (Linux: a Node.js process names its
 * threads "MainThread", "V8Worker" for the garbage collector's helpers, "libuv-worker" for the
 * file system's pool…); threads of one name are added up.
 */
export function threadCpuOf(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    const thread = statCpu(`/proc/${pid}/task/${tid}/stat`);
    if (thread !== undefined) byName.set(thread.name, (byName.get(thread.name) ?? 0) + thread.ms);
  }
  return byName;
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
