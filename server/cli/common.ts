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

/** What a command prints on standard output with an exit code of its own choosing (a check that found something exits 1). */
export interface CommandOutput {
  text: string;
  exitCode: 0 | 1;
}

/** Runs a command's body and turns its outcome into one printed line and the exit code. */
export async function runCommand(body: () => Promise<string | CommandOutput>): Promise<void> {
  try {
    const output = await body();
    const { text, exitCode } = typeof output === 'string' ? { text: output, exitCode: 0 } : output;
    process.stdout.write(`${text}\n`);
    process.exitCode = exitCode;
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

/** A timestamp for file names: 20310310T090000Z. */
export const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

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
 * DATABASE_URL split for PostgreSQL's client tools: the URL without its password, for
 * `--dbname`, and the environment that carries the password (PGPASSWORD). Every local user can
 * read a process's command line (`ps`, /proc/PID/cmdline); its environment only its owner can.
 * libpq takes the password from the user-info part or from a `password` query parameter.
 */
export function postgresToolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  let password = parsed.password === '' ? null : decodeURIComponent(parsed.password);
  parsed.password = '';
  // Only the `password` pair is dropped; the others keep their spelling (libpq reads a `+` as a plus).
  const pairs = parsed.search.slice(1).split('&').filter((pair) => pair !== '');
  const kept = pairs.filter((pair) => {
    const [name = '', value = ''] = pair.split('=', 2);
    if (decodeURIComponent(name) !== 'password') return true;
    password = decodeURIComponent(value);
    return false;
  });
  parsed.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
  return { dbname: parsed.toString(), env: password === null ? process.env : { ...process.env, PGPASSWORD: password } };
}

/**
 * Runs one of PostgreSQL's client tools (pg_dump, pg_restore) on DATABASE_URL, given as
 * `--dbname` before `args` with its password in the environment; a missing tool or a failure
 * becomes one line, the tool's first complaint included.
 */
export function runPostgresTool(tool: string, args: string[], url: string, failed: string): void {
  const { dbname, env } = postgresToolConnection(url);
  const run = spawnSync(tool, [`--dbname=${dbname}`, ...args], { encoding: 'utf8', env });
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
