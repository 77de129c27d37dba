/**
 * The browser-test harness, shared by Playwright's global set-up and `npm run screenshots`:
 * a real SMTP server catching every mail, and the app server started the way `npm start` starts
 * it (`node server/server.ts`) as a child process, on a free port of 127.0.0.1, with a fresh
 * SQLite database under e2e/.tmp/.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../scripts/lib/processes.ts';
import { startMailCatcher, type MailCatcher } from '../../server/test/mail-catcher.ts';
import { providersSetting, startTestProvider, type TestProvider } from '../../server/test/oidc-provider.ts';
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

/**
 * Starts the SMTP catcher and the app server; `name` separates concurrent harnesses' files;
 * `originHost` is the host name of its APP_ORIGIN (default 127.0.0.1).
 */
export async function startHarness(name = 'e2e', originHost?: string): Promise<Harness> {
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
  let server: ServerProcess | undefined;
  let provider: TestProvider | undefined;
  try {
    mail = await startMailCatcher({ dir: mailDir });
    // An OpenID provider to sign in with (the oidc spec); the app's port is not known yet, so any loopback port may be redirected to.
    provider = await startTestProvider(['http://127.0.0.1/api/auth/oidc/test/callback'], { anyLoopbackPort: true });
    // Same command as `npm start` after its build step; configuration by environment only.
    server = await startServerProcess({
      ...(originHost === undefined ? {} : { originHost }),
      baseEnv: process.env,
      logFile: logPath,
      env: {
        DATABASE_URL: `file:${dbPath}`,
        // Attachment files beside the database, never in the repository's ./data/.
        FILES_DIR: join(dir, 'files'),
        SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
        // Given explicitly so the server does not write one into ./data/.
        SESSION_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
        // The webhook spec's receiver listens on 127.0.0.1, which the outbound rule refuses otherwise.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        OIDC_PROVIDERS: providersSetting(provider),
      },
    });
    const app = server;
    const smtp = mail;
    const op = provider;
    return {
      baseURL: app.url,
      mailDir,
      dbPath,
      logPath,
      async stop() {
        await app.stop('SIGTERM', 10_000);
        await smtp.close();
        await op.stop();
      },
    };
  } catch (error) {
    if (server) await server.stop('SIGTERM', 10_000);
    if (mail) await mail.close();
    if (provider) await provider.stop();
    throw error;
  }
}
