import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createMaintenanceRepository } from '../repositories/maintenance-repository.ts';
import { CommandError, humanSize, parseCommandArgs, readConfig, runCommand, runPostgresTool, withDatabase } from './common.ts';

/**
 * `npm run backup -- [--out FILE]`: a consistent snapshot while the server runs and takes writes.
 * SQLite: `VACUUM INTO` a new file (one read transaction, so writers carry on and the copy holds
 * every commit made before it began); PostgreSQL: `pg_dump --format=custom`.
 */
const USAGE = 'Usage: npm run backup -- [--out FILE]';

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

await runCommand(async () => {
  const { out } = parseCommandArgs({ options: { out: { type: 'string' } } }, USAGE).values;
  const config = readConfig();
  const started = Date.now();
  const sqlite = config.database.kind === 'sqlite';
  const target = resolve(out ?? `backups/taskwise-${stamp(new Date())}.${sqlite ? 'db' : 'dump'}`);
  if (existsSync(target)) throw new CommandError(`${target} already exists; choose another --out.`);
  mkdirSync(dirname(target), { recursive: true });
  // Written under a temporary name and renamed, so a file at `target` is always a whole backup.
  const partial = `${target}.part-${randomBytes(4).toString('hex')}`;

  try {
    if (config.database.kind === 'sqlite') {
      if (!existsSync(config.database.file)) throw new CommandError(`There is no database at ${config.database.file} (DATABASE_URL).`);
      await withDatabase(config, ({ db }) => createMaintenanceRepository(db).vacuumInto(partial));
    } else {
      runPostgresTool('pg_dump', ['--format=custom', `--file=${partial}`], config.database.url, 'pg_dump failed');
    }
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return `Backup written to ${target} (${humanSize(statSync(target).size)} in ${Date.now() - started} ms).`;
});
