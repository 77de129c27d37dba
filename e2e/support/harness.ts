/**
 * The browser-test harness, shared by Playwright's global set-up and `npm run screenshots`:
 * a real SMTP server catching every mail, and the app server started the way `npm start` starts
 * it (`node server/server.ts`) as a child process, on a free port of 127.0.0.1, with a fresh
 * SQLite database under e2e/.tmp/.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, running, stopChild } from '../../scripts/lib/processes.ts';
import { startMailCatcher, type MailCatcher } from './mail-store.ts';
import { distIndex, repoRoot, tmpRoot } from './paths.ts';

export interface Harness {
  baseURL: string;
  mailDir: string;
  dbPath: string;
  logPath: string;
  stop(): Promise<void>;
}

/** Builds the web app into dist/web once (the server serves it). Throws when the build fails. */
export function buildWeb(): void {
  const result = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
}

function tail(path: string, lines = 40): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

async function waitForHealth(baseURL: string, child: ChildProcess, logPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!running(child)) {
      throw new Error(`The app server exited (${child.exitCode ?? child.signalCode}) before it was healthy. Its log:\n${tail(logPath)}`);
    }
    try {
      const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await delay(150);
  }
  throw new Error(`GET /api/health did not answer 200 within ${timeoutMs} ms (last: ${last}). Server log:\n${tail(logPath)}`);
}

/** Starts the SMTP catcher and the app server; `name` separates concurrent harnesses' files. */
export async function startHarness(name = 'e2e'): Promise<Harness> {
  if (!existsSync(distIndex)) {
    throw new Error('dist/web/index.html is missing: build the web app first (node e2e/run.ts does).');
  }
  const dir = join(tmpRoot, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mailDir = join(dir, 'mail');
  const dbPath = join(dir, 'taskwise.db');
  const logPath = join(dir, 'server.log');

  let mail: MailCatcher | undefined;
  let child: ChildProcess | undefined;
  try {
    mail = await startMailCatcher(mailDir);
    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}`;
    const log = openSync(logPath, 'a');
    // Same command as `npm start` after its build step; configuration by environment only.
    child = spawn(process.execPath, ['server/server.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: `file:${dbPath}`,
        SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
        APP_ORIGIN: baseURL,
        // Given explicitly so the server does not write one into ./data/.
        SESSION_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    await waitForHealth(baseURL, child, logPath, 60_000);
    const app = child;
    const smtp = mail;
    return {
      baseURL,
      mailDir,
      dbPath,
      logPath,
      async stop() {
        await stopChild(app, 10_000);
        await smtp.close();
      },
    };
  } catch (error) {
    if (child) await stopChild(child, 10_000);
    if (mail) await mail.close();
    throw error;
  }
}
