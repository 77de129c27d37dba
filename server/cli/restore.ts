import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { openSqliteReadOnly } from '../db/sqlite-driver.ts';
import type { DB } from '../db/schema.ts';
import { createMaintenanceRepository } from '../repositories/maintenance-repository.ts';
import { createUsersRepository } from '../repositories/users-repository.ts';
import { CommandError, parseCommandArgs, readConfig, runCommand, runPostgresTool, stamp, withDatabase } from './common.ts';
import { copyStoredFiles } from './files-copy.ts';
import { processesUsing, sqliteFiles } from './sqlite-files.ts';

/**
 * `npm run restore -- FILE [--force]`: replaces the database with a snapshot of `npm run backup`.
 * Refuses (exit 1, nothing changed) while the target holds any account, unless --force; on
 * SQLite also while a process (the server) has the database open.
 *
 * With files on local disk and a `FILE.files/` directory beside the backup, the files directory
 * (FILES_DIR) is replaced by that copy too: copied next to it first, swapped in once the
 * database is restored, the previous directory kept aside. Files in an S3 bucket are not touched.
 */
const USAGE = 'Usage: npm run restore -- FILE [--force]';

async function withReadOnly<T>(file: string, body: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const db = openSqliteReadOnly(file);
  try {
    return await body(db);
  } finally {
    await db.destroy();
  }
}

/** Accounts in a database; 0 when it has no users table yet (never started). */
async function accounts(db: Kysely<DB>, tables: () => Promise<string[]>): Promise<number> {
  return (await tables()).includes('users') ? createUsersRepository(db).countAll() : 0;
}

async function restoreSqlite(source: string, target: string, force: boolean): Promise<string> {
  const check = await withReadOnly(source, async (db) => {
    const maintenance = createMaintenanceRepository(db);
    const tables = await maintenance.tableNames().catch(() => null);
    if (tables === null) return 'is not a SQLite database';
    if (!tables.includes('users') || !tables.includes('kysely_migration')) return 'is not a Taskwise database';
    const problems = await maintenance.integrityCheck();
    return problems.length === 1 && problems[0] === 'ok' ? null : `fails SQLite's integrity check (${problems[0] ?? 'no answer'})`;
  }).catch(() => 'cannot be opened as a SQLite database');
  if (check !== null) throw new CommandError(`${source} ${check}; nothing changed.`);

  const users = processesUsing(target);
  if (users.length > 0) {
    throw new CommandError(`${target} is open in process ${users.join(', ')} (a running Taskwise server?): stop it, then restore again; nothing changed.`);
  }
  if (existsSync(target) && !force) {
    const held = await withReadOnly(target, (db) => accounts(db, () => createMaintenanceRepository(db).tableNames()));
    if (held > 0) throw new CommandError(`${target} holds data (${held} accounts); nothing changed. Add --force to replace it.`);
  }

  // Copy next to the target, then swap: a crash leaves either the old or the new database.
  mkdirSync(dirname(target), { recursive: true });
  const incoming = `${target}.restore-${randomBytes(4).toString('hex')}`;
  copyFileSync(source, incoming);
  let kept = '';
  if (existsSync(target)) {
    const previous = `${target}.before-restore-${stamp(new Date())}`;
    // The old database's -wal holds commits of the old file: it moves along, never onto the new one.
    const moved = sqliteFiles(previous);
    sqliteFiles(target).forEach((file, i) => {
      const to = moved[i];
      if (existsSync(file) && to !== undefined) renameSync(file, to);
    });
    kept = ` (the previous one is kept as ${previous})`;
  } else {
    for (const file of sqliteFiles(target).slice(1)) rmSync(file, { force: true });
  }
  renameSync(incoming, target);
  return `Restored ${target} from ${source}${kept}.`;
}

async function restorePostgres(source: string, url: string, force: boolean, config: ReturnType<typeof readConfig>): Promise<string> {
  const held = await withDatabase(config, async ({ db }) => {
    try {
      return await createUsersRepository(db).countAll();
    } catch {
      return 0; // no users table yet: an empty database
    }
  });
  if (held > 0 && !force) throw new CommandError(`The database holds data (${held} accounts); nothing changed. Add --force to replace it.`);
  // One transaction: on any error nothing of the dump is applied.
  runPostgresTool(
    'pg_restore',
    ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', source],
    url,
    'pg_restore failed, nothing changed',
  );
  return `Restored the database from ${source}.`;
}

await runCommand(async () => {
  const { values, positionals } = parseCommandArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true }, USAGE);
  if (positionals.length !== 1 || positionals[0] === undefined) throw new CommandError(`Name one backup file. ${USAGE}`);
  const source = resolve(positionals[0]);
  if (!existsSync(source)) throw new CommandError(`${source} does not exist.`);
  const config = readConfig();
  const restore = () =>
    config.database.kind === 'sqlite' ? restoreSqlite(source, config.database.file, values.force) : restorePostgres(source, config.database.url, values.force, config);
  if (config.files.kind === 's3') {
    return `${await restore()} Attachment files are in the S3 bucket "${config.files.bucket}", which this leaves as it is.`;
  }
  const dir = config.files.dir;
  const filesSource = `${source}.files`;
  if (!existsSync(filesSource)) return `${await restore()} There is no ${filesSource} beside the backup: ${dir} is left as it is.`;

  // Copied next to FILES_DIR before the database changes, swapped in after: a failure leaves the old directory in place.
  const incoming = `${dir}.restore-${randomBytes(4).toString('hex')}`;
  try {
    const { files } = await copyStoredFiles(filesSource, incoming);
    const restored = await restore();
    let kept = '';
    if (existsSync(dir)) {
      const previous = `${dir}.before-restore-${stamp(new Date())}`;
      renameSync(dir, previous);
      kept = ` (the previous ones are kept in ${previous})`;
    }
    renameSync(incoming, dir);
    return `${restored} Attachment files restored to ${dir}: ${files} files${kept}.`;
  } finally {
    rmSync(incoming, { recursive: true, force: true });
  }
});
