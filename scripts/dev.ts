/**
 * `npm run dev`: the API server (restarted on change by `node --watch`) on API_PORT (3001), and
 * the Vite dev server with hot reload on 5173, proxying /api to it. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const apiPort = process.env.API_PORT ?? '3001';
const webPort = Number(process.env.WEB_PORT ?? '5173');

function startApi(): ChildProcess {
  const child = spawn(process.execPath, ['--watch', 'server/server.ts'], {
    cwd: repoRoot,
    stdio: 'inherit',
    // The proxy keeps the browser's Host header, so its Origin is the API's "own origin".
    env: { ...process.env, PORT: apiPort, HOST: '127.0.0.1' },
  });
  child.on('exit', (code, signal) => {
    if (!stopping) console.warn(`[dev] API server exited (${signal ?? String(code)}).`);
  });
  return child;
}

let stopping = false;
let api: ChildProcess | null = null;
let web: ViteDevServer | null = null;

async function stop(exitCode: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    api?.kill('SIGTERM');
    await web?.close();
  }
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

api = startApi();
try {
  web = await createServer({
    configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)),
    server: { port: webPort, strictPort: true },
  });
  await web.listen();
  const webUrl = web.resolvedUrls?.local[0] ?? `http://127.0.0.1:${webPort}/`;
  process.stdout.write(
    `\n  Taskwise (dev)\n` +
      `  ➜  Web app:  ${webUrl}   (hot reload; open this one)\n` +
      `  ➜  API:      http://127.0.0.1:${apiPort}/api   (proxied at ${webUrl}api, restarts on change)\n` +
      `  ➜  API docs: ${webUrl}api/docs\n` +
      `  Ctrl-C stops both.\n\n`,
  );
} catch (error) {
  console.error('[dev] Could not start the Vite dev server:', error);
  await stop(1);
}
