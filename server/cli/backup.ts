import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createMaintenanceRepository } from '../repositories/maintenance-repository.ts';
import { CommandError, humanSize, parseCommandArgs, readConfig, runCommand, runPostgresTool, stamp, withDatabase } from './common.ts';
import { copyStoredFiles } from './files-copy.ts';

/**
 * `npm run backup -- [--out FILE]`: a consistent snapshot while the server runs and takes writes.
 * SQLite: `VACUUM INTO` a new file (one read transaction, so writers carry on and the copy holds
 * every commit made before it began); PostgreSQL: `pg_dump --format=custom`.
 *
 * Attachment files on local disk (FILES_DIR) are copied into `FILE.files/`, in two passes around
 * the snapshot: everything before it, then what arrived while it was taken. A file is stored
 * before its row commits, so every row in the snapshot finds its file in the copy (unless the
 * file was uploaded and deleted again within those seconds). Files in an S3 bucket are the
 * operator's to back up with the store's own tools (versioning, replication, `mc mirror`).
 */
const USAGE = 'Usage: npm run backup -- [--out FILE]';

await runCommand(async () => {
  const { out } = parseCommandArgs({ options: { out: { type: 'string' } } }, USAGE).values;
  const config = readConfig();
  const started = Date.now();
  const sqlite = config.database.kind === 'sqlite';
  const target = resolve(out ?? `backups/taskwise-${stamp(new Date())}.${sqlite ? 'db' : 'dump'}`);
  const filesTarget = `${target}.files`;
  const onDisk = config.files.kind === 'disk' ? config.files.dir : undefined;
  for (const taken of onDisk === undefined ? [target] : [target, filesTarget]) {
    if (existsSync(taken)) throw new CommandError(`${taken} already exists; choose another --out.`);
  }
  mkdirSync(dirname(target), { recursive: true });
  // Written under temporary names and renamed, so a file at `target` is always a whole backup.
  const suffix = `.part-${randomBytes(4).toString('hex')}`;
  const partial = `${target}${suffix}`;
  const filesPartial = `${filesTarget}${suffix}`;

  let copied = { files: 0, bytes: 0 };
  try {
    if (onDisk !== undefined) copied = await copyStoredFiles(onDisk, filesPartial);
    if (config.database.kind === 'sqlite') {
      if (!existsSync(config.database.file)) throw new CommandError(`There is no database at ${config.database.file} (DATABASE_URL).`);
      await withDatabase(config, ({ db }) => createMaintenanceRepository(db).vacuumInto(partial));
    } else {
      runPostgresTool('pg_dump', ['--format=custom', `--file=${partial}`], config.database.url, 'pg_dump failed');
    }
    if (onDisk !== undefined) {
      const since = await copyStoredFiles(onDisk, filesPartial);
      copied = { files: copied.files + since.files, bytes: copied.bytes + since.bytes };
      renameSync(filesPartial, filesTarget);
    }
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
    rmSync(filesPartial, { recursive: true, force: true });
  }
  const written = `Backup written to ${target} (${humanSize(statSync(target).size)} in ${Date.now() - started} ms)`;
  if (config.files.kind === 's3') {
    return `${written}. Attachment files are in the S3 bucket "${config.files.bucket}" at ${config.files.endpoint}: back that bucket up with the store's own tools.`;
  }
  return `${written}, attachment files to ${filesTarget} (${copied.files} files, ${humanSize(copied.bytes)}).`;
});
