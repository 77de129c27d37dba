import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Kysely } from 'kysely';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/connect.ts';

/**
 * What the operations commands (`npm run backup`, `restore`, `admin`) share: the server's own
 * configuration (environment, then .env), and one line of output — on standard output with
 * exit 0 on success, on standard error with exit 1 on failure.
 */

/** A failure the person running the command can act on; its message is the one line printed. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

export function readConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return loadConfig(process.env);
}

/** Opens DATABASE_URL; the caller closes it (`db.destroy()`). */
export function openCommandDatabase(config: Config): Database {
  return openDatabase(config.database, (error) => {
    process.stderr.write(`PostgreSQL connection error: ${error.message}\n`);
  });
}

/** Runs a command's body and turns its outcome into one printed line and the exit code. */
export async function runCommand(body: () => Promise<string>): Promise<void> {
  try {
    process.stdout.write(`${await body()}\n`);
    process.exitCode = 0;
  } catch (error) {
    const known = error instanceof CommandError || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${known ? message : `Failed: ${message}`}\n`);
    process.exitCode = 1;
  }
}

/** Closes the database even when the body threw. */
export async function withDatabase<T>(config: Config, body: (database: Database) => Promise<T>): Promise<T> {
  const database = openCommandDatabase(config);
  try {
    return await body(database);
  } finally {
    await (database.db as Kysely<unknown>).destroy();
  }
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** `node:util` parseArgs, its complaints turned into one line that ends with the usage. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new CommandError(`${error instanceof Error ? error.message.split('. ')[0] ?? '' : String(error)}. ${usage}`);
  }
}

/**
 * Runs one of PostgreSQL's client tools (pg_dump, pg_restore); a missing tool or a failure
 * becomes one line, the tool's first complaint included.
 */
export function runPostgresTool(tool: string, args: string[], failed: string): void {
  const run = spawnSync(tool, args, { encoding: 'utf8' });
  if (run.error !== undefined && 'code' in run.error && run.error.code === 'ENOENT') {
    throw new CommandError(
      `${tool} is not installed: install the PostgreSQL client tools of your server's version (e.g. \`apt install postgresql-client\`), or use your provider's backups.`,
    );
  }
  if (run.status !== 0) {
    const complaint = run.stderr.trim().split('\n')[0] ?? '';
    throw new CommandError(`${failed}: ${complaint === '' ? `${tool} exited with ${String(run.status)}` : complaint}`);
  }
}
