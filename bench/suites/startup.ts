/**
 * Start-up: the time from running `npm start` (the real command, with its Node check and web
 * build check) to the first 200 from /api/health, on a fresh SQLite database, for a tree whose
 * web app is already built from the current sources, and for one whose build is out of date
 * (npm start then rebuilds it first; a full run only, as it takes a Vite build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { webBuildState, webDist } from '../../scripts/lib/web-build.ts';
import { loadAverage, median, repoRoot, table } from '../lib/env.ts';
import { freePort } from '../lib/servers.ts';

interface Start {
  ms: number;
  rebuilt: boolean;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** `npm start` in its own process group (npm → sh → node), stopped as a group by its id. */
async function timeNpmStart(opts: BenchOptions, name: string): Promise<Start> {
  const port = await freePort();
  const logPath = join(opts.tmpDir, `${name}.log`);
  const log = openSync(logPath, 'w');
  const { LOG_LEVEL: _level, LOG_FORMAT: _format, NODE_ENV: _env, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...inherited,
      // npm runs the scripts with the first `node` on PATH: this one.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `file:${join(opts.tmpDir, `${name}.db`)}`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
    },
  });
  closeSync(log);
  const stopGroup = async () => {
    if (child.pid === undefined || exited(child)) return;
    process.kill(-child.pid, 'SIGTERM');
    for (let i = 0; i < 150 && !exited(child); i++) await delay(100);
    if (!exited(child)) process.kill(-child.pid, 'SIGKILL');
  };
  try {
    const deadline = started + 300_000;
    while (performance.now() < deadline) {
      if (exited(child)) throw new Error(`npm start exited (${String(child.exitCode ?? child.signalCode)}):\n${readFileSync(logPath, 'utf8').slice(-2000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) })
        .then((res) => res.status === 200)
        .catch(() => false);
      if (ok) {
        const ms = performance.now() - started;
        return { ms, rebuilt: /Building|Rebuilding/.test(readFileSync(logPath, 'utf8')) };
      }
      await delay(20);
    }
    throw new Error(`npm start: no 200 from /api/health within 300 s:\n${readFileSync(logPath, 'utf8').slice(-2000)}`);
  } finally {
    await stopGroup();
  }
}

export const suite: BenchSuite = {
  name: 'startup',
  async run(opts): Promise<BenchSection[]> {
    if (webBuildState() !== 'fresh') throw new Error('dist/web is not built from the current sources (the runner builds it first)');
    const built: Start[] = [];
    for (let i = 0; i < (opts.quick ? 1 : 3); i++) {
      built.push(await timeNpmStart(opts, `built-${i}`));
      opts.log(`startup: built tree, npm start → health 200 in ${built.at(-1)!.ms.toFixed(0)} ms`);
    }
    let stale: Start | null = null;
    if (!opts.quick) {
      // Out of date as after a `git pull` that touched the web app: the recorded sources hash no
      // longer matches. npm start must rebuild, then serve the new build.
      writeFileSync(join(webDist, '.sources-sha256'), 'sources changed since this build\n');
      stale = await timeNpmStart(opts, 'stale');
      opts.log(`startup: out-of-date tree, npm start (rebuilds) → health 200 in ${stale.ms.toFixed(0)} ms`);
    }
    const builtMs = median(built.map((s) => s.ms));
    const targets: TargetResult[] = [
      { name: 'npm start on a built tree skips the web build', target: 'no rebuild', figure: built.some((s) => s.rebuilt) ? 'rebuilt' : 'skipped', met: !built.some((s) => s.rebuilt) },
      ...(stale === null ? [] : [{ name: 'npm start on an out-of-date tree rebuilds the web app', target: 'rebuild', figure: stale.rebuilt ? 'rebuilt' : 'skipped', met: stale.rebuilt && webBuildState() === 'fresh' }]),
    ];
    const markdown = [
      `From spawning \`npm start\` to the first 200 from /api/health (polled every 20 ms), fresh SQLite database (migrations included). Load average after: ${loadAverage()}.`,
      '',
      table(
        ['tree', 'npm start → health 200', 'runs'],
        [
          ['web app built from the current sources (build skipped)', `${(builtMs / 1000).toFixed(2)} s (median)`, built.map((s) => `${(s.ms / 1000).toFixed(2)} s`).join(', ')],
          ['web app out of date (npm start rebuilds it first)', stale === null ? 'not measured in a quick run' : `${(stale.ms / 1000).toFixed(2)} s`, stale === null ? '' : '1'],
        ],
      ),
    ].join('\n');
    return [{ title: 'Start-up: npm start → /api/health 200', markdown, targets }];
  },
};
