import { existsSync } from 'node:fs';
import { build } from './app.ts';
import { ConfigError, ensureDatabaseDirectory, loadConfig, type Config } from './config.ts';

/**
 * `npm start`: reads the configuration (environment, then an optional .env — real environment
 * variables win), builds the app (which migrates the database), listens, and on SIGTERM/SIGINT
 * stops accepting connections, lets in-flight requests finish, and closes the database.
 */
if (existsSync('.env')) process.loadEnvFile('.env');

let config: Config;
try {
  config = loadConfig(process.env, process.cwd(), process.stdout.isTTY);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
ensureDatabaseDirectory(config);

let app: Awaited<ReturnType<typeof build>>;
try {
  app = await build({ config });
} catch (error) {
  console.error(`Taskwise could not start: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.cause !== undefined) console.error(error.cause);
  process.exit(1);
}

const SHUTDOWN_TIMEOUT_MS = 10_000;
let shuttingDown = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (shuttingDown) {
    // A second signal: the operator does not want to wait.
    process.exit(1);
  }
  shuttingDown = true;
  app.log.info({ signal }, 'Shutting down: finishing in-flight requests');
  const timer = setTimeout(() => {
    app.log.error(`In-flight requests did not finish within ${SHUTDOWN_TIMEOUT_MS} ms; exiting anyway.`);
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'Error while shutting down');
    process.exit(1);
  }
}
process.on('SIGTERM', (signal) => void shutdown(signal));
process.on('SIGINT', (signal) => void shutdown(signal));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(`Taskwise could not listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
  await app.close();
  process.exit(1);
}
for (const warning of config.warnings) app.log.warn(warning);
app.log.info(`Taskwise is ready at ${config.appOrigin} (database: ${config.database.kind})`);
