import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from './commands.ts';
import { startS3Server } from './s3-server.ts';
import { http, onPostgres, scratchDatabase, startServer, taskIdOf, type ChildServer, type ScratchDatabase } from './security/child-server.ts';

/**
 * `npm run backup` and `npm run restore` as an operator runs them, next to the real server
 * (`node server/server.ts`) taking writes, on a database of their own.
 */
const USER = { email: 'backup@example.test', password: 'a backup password' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function database(): Promise<ScratchDatabase> {
  const db = await scratchDatabase();
  cleanups.push(() => db.drop());
  return db;
}
async function server(db: ScratchDatabase): Promise<ChildServer> {
  const started = await startServer({ DATABASE_URL: db.url }, db.dir);
  cleanups.push(() => started.stop('SIGTERM'));
  return started;
}
const command = (name: 'backup' | 'restore' | 'admin', args: string[], db: ScratchDatabase, stdin?: string) =>
  runCommand(name, args, { env: { DATABASE_URL: db.url }, cwd: db.dir, ...(stdin === undefined ? {} : { stdin }) });

async function signIn(target: ChildServer): Promise<string> {
  const res = await http(`${target.url}/api/users/login`, { method: 'POST', body: USER, headers: { origin: target.url } });
  expect(res.status, res.body).toBe(200);
  return ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
}

/** Task ids in a database, read straight from it (the server is not involved). */
async function taskIds(db: ScratchDatabase): Promise<Set<string>> {
  if (!onPostgres) {
    const sqlite = new DatabaseSync(db.url.slice('file:'.length), { readOnly: true });
    try {
      expect(sqlite.prepare('pragma integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
      return new Set((sqlite.prepare('select id from tasks').all() as { id: string }[]).map((r) => r.id));
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return new Set((await client.query<{ id: string }>('select id from tasks')).rows.map((r) => r.id));
  } finally {
    await client.end();
  }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('npm run backup, then npm run restore', () => {
  it('a backup taken while the server takes writes restores every write acknowledged before it began', async () => {
    const source = await database();
    expect((await command('admin', ['users:create', '--email', USER.email, '--name', 'Bea Backup', '--password-stdin'], source, USER.password)).code).toBe(0);
    const live = await server(source);
    const cookie = await signIn(live);

    // Eight writers create tasks until the backup has finished and a few more writes followed.
    const acknowledged: string[] = [];
    const failures: string[] = [];
    const state = { backupDone: false, afterBackup: 0 };
    const running = (): boolean => !state.backupDone || state.afterBackup < 20;
    let sequence = 0;
    // Resolves once 100 writes were acknowledged (or one failed): the backup starts then.
    const { promise: hundredAcknowledged, resolve: backupMayStart } = Promise.withResolvers<undefined>();
    const writer = async () => {
      while (running()) {
        const res = await http(`${live.url}/api/tasks`, {
          method: 'POST',
          body: { taskTitle: `Backed-up task ${++sequence}`, assignee: 'someone@example.test' },
          headers: { cookie, origin: live.url },
        });
        if (res.status !== 201) failures.push(`${res.status} ${res.body}`);
        else acknowledged.push(taskIdOf(res));
        if (acknowledged.length >= 100 || failures.length > 0) backupMayStart(undefined);
        if (state.backupDone) state.afterBackup += 1;
      }
    };
    const writers = Promise.all(Array.from({ length: 8 }, writer));
    await hundredAcknowledged;
    const beforeBackup = [...acknowledged];
    const out = join(source.dir, 'snapshot.backup');
    const backup = await command('backup', ['--out', out], source);
    state.backupDone = true;
    await writers;
    expect(failures).toEqual([]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`^Backup written to ${out.replace(/[.]/g, '\\.')} \\(.+\\)\\.\\n$`));
    expect(acknowledged.length).toBeGreaterThan(beforeBackup.length);

    // Restored into a database of its own, which then holds every write acknowledged before.
    const target = await database();
    const restored = await command('restore', [out], target);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored .+\.\n$/);
    const ids = await taskIds(target);
    expect(beforeBackup.filter((id) => !ids.has(id))).toEqual([]);
    // Nothing appears that the server did not acknowledge (all writes here were acknowledged).
    expect([...ids].filter((id) => !acknowledged.includes(id))).toEqual([]);

    // The restored database serves: the user signs in and sees the restored tasks.
    const revived = await server(target);
    const list = await http(`${revived.url}/api/tasks?limit=1`, { headers: { cookie: await signIn(revived) } });
    expect(list.status).toBe(200);
  }, 120_000);

  it('restore refuses to replace a database that holds data unless --force, and changes nothing', async () => {
    const source = await database();
    await command('admin', ['users:create', '--email', 'one@example.test', '--name', 'One'], source);
    const out = join(source.dir, 'one.backup');
    expect((await command('backup', ['--out', out], source)).code).toBe(0);

    const target = await database();
    await command('admin', ['users:create', '--email', 'two@example.test', '--name', 'Two'], target);
    const refused = await command('restore', [out], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/holds data \(1 accounts\); nothing changed\. Add --force to replace it\.\n$/);
    expect((await command('admin', ['users:list'], target)).stdout).toMatch(/^two@example\.test\tTwo\t/);

    const forced = await command('restore', [out, '--force'], target);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await command('admin', ['users:list'], target)).stdout).toMatch(/^one@example\.test\tOne\t\S+\n$/);
  }, 60_000);

  it('refuses to write over an existing file or to restore something that is not a backup', async () => {
    const db = await database();
    await command('admin', ['users:list'], db);
    const taken = join(db.dir, 'taken.backup');
    writeFileSync(taken, 'not a backup');
    const backup = await command('backup', ['--out', taken], db);
    expect(backup).toEqual({ code: 1, stdout: '', stderr: `${taken} already exists; choose another --out.\n` });
    expect(readFileSync(taken, 'utf8')).toBe('not a backup');

    const restore = await command('restore', [taken, '--force'], db);
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim().split('\n')).toHaveLength(1);
    expect((await command('restore', [], db)).stderr).toMatch(/^Name one backup file\. Usage: npm run restore -- FILE \[--force\]\n$/);
  }, 60_000);

  it('copies the files directory beside the snapshot, and restore puts that copy in place of the files directory', async () => {
    const write = (file: string, content: string | Buffer) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    };
    const source = await database();
    expect((await command('admin', ['users:list'], source)).code).toBe(0);
    const files = join(source.dir, 'data', 'files');
    const photo = randomBytes(50_000);
    write(join(files, 'attachments', 'a1'), photo);
    write(join(files, 'thumbnails', 'a1.webp'), 'thumbnail');
    write(join(files, '.incoming', 'half-uploaded'), 'in flight');
    const out = join(source.dir, 'with-files.backup');
    const backup = await command('backup', ['--out', out], source);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`, attachment files to ${`${out}.files`.replace(/[.]/g, '\\.')} \\(2 files, 48\\.\\d KiB\\)\\.\\n$`));
    expect(readdirSync(`${out}.files`, { recursive: true }).sort()).toEqual(['attachments', 'attachments/a1', 'thumbnails', 'thumbnails/a1.webp']);

    const target = await database();
    const targetFiles = join(target.dir, 'data', 'files');
    write(join(targetFiles, 'attachments', 'old'), 'from before');
    const restored = await command('restore', [out], target);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`Attachment files restored to ${targetFiles}: 2 files \\(the previous ones are kept in (${targetFiles}\\.before-restore-\\d{8}T\\d{6}Z)\\)\\.\\n$`));
    expect(readFileSync(join(targetFiles, 'attachments', 'a1'))).toEqual(photo);
    expect(readFileSync(join(targetFiles, 'thumbnails', 'a1.webp'), 'utf8')).toBe('thumbnail');
    expect(existsSync(join(targetFiles, 'attachments', 'old'))).toBe(false);
    const previous = readdirSync(join(target.dir, 'data')).filter((name) => name.startsWith('files.before-restore-'));
    expect(previous).toHaveLength(1);
    expect(readFileSync(join(target.dir, 'data', previous[0]!, 'attachments', 'old'), 'utf8')).toBe('from before');
  }, 60_000);

  it('with files in S3, backup and restore say the bucket is the operator\'s and copy no files', async () => {
    const s3 = await startS3Server();
    try {
      const source = await database();
      const S3_URL = `s3://S3RVER:S3RVER@${new URL(s3.config.endpoint).host}/${s3.config.bucket}?forcePathStyle=true`;
      const withS3 = (name: 'backup' | 'restore', args: string[], db: ScratchDatabase) => runCommand(name, args, { env: { DATABASE_URL: db.url, S3_URL }, cwd: db.dir });
      expect((await command('admin', ['users:list'], source)).code).toBe(0);
      const out = join(source.dir, 'bucket.backup');
      const backup = await withS3('backup', ['--out', out], source);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/ ms\)\. Attachment files are in the S3 bucket "taskwise-test" at http:\/\/127\.0\.0\.1:\d+: back that bucket up with the store's own tools\.\n$/);
      expect(existsSync(`${out}.files`)).toBe(false);

      const target = await database();
      const restored = await withS3('restore', [out], target);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/ Attachment files are in the S3 bucket "taskwise-test", which this leaves as it is\.\n$/);
      // Restored where files are on disk, a backup without a files directory leaves that directory alone.
      const onDisk = await command('restore', [out, '--force'], target);
      expect(onDisk.code, onDisk.stderr).toBe(0);
      expect(onDisk.stdout).toMatch(new RegExp(`There is no ${out.replace(/[.]/g, '\\.')}\\.files beside the backup: ${join(target.dir, 'data', 'files')} is left as it is\\.\\n$`));
    } finally {
      await s3.stop();
    }
  }, 60_000);

  it(onPostgres ? 'says so when pg_dump is not installed' : 'refuses to restore while a server has the SQLite database open', async () => {
    const db = await database();
    if (onPostgres) {
      // PATH with node only: pg_dump cannot be found.
      const res = await runCommand('backup', [], { env: { DATABASE_URL: db.url, PATH: join(process.execPath, '..') }, cwd: db.dir });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^pg_dump is not installed: install the PostgreSQL client tools/);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      return;
    }
    await command('admin', ['users:create', '--email', 'open@example.test', '--name', 'Open'], db);
    const out = join(db.dir, 'open.backup');
    expect((await command('backup', ['--out', out], db)).code).toBe(0);
    const live = await server(db);
    const file = db.url.slice('file:'.length);
    const before = sha256(file);
    const res = await command('restore', [out, '--force'], db);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`is open in process ${String(live.process.pid)}.*stop it, then restore again; nothing changed\\.\\n$`));
    expect(sha256(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(true);
  }, 60_000);

  it.skipIf(!onPostgres)('hands pg_dump and pg_restore the password in the environment, never on their command line', async () => {
    const db = await database();
    const withPassword = new URL(db.url);
    withPassword.password = 'pw-on-the-line'; // the test cluster trusts every connection, so any password connects
    // In front of each tool on PATH: a script that records the command line and PGPASSWORD, then runs the real tool.
    const bin = join(db.dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['pg_dump', 'pg_restore']) {
      const real = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, tool)).find((file) => existsSync(file));
      if (real === undefined) throw new Error(`${tool} is not installed`);
      const script = `#!/bin/sh\nprintf '%s\\n' "$0 $*" "PGPASSWORD=\${PGPASSWORD-}" >> '${join(bin, 'calls.log')}'\nexec '${real}' "$@"\n`;
      writeFileSync(join(bin, tool), script);
      chmodSync(join(bin, tool), 0o755);
    }
    const PATH = `${bin}${delimiter}${process.env.PATH ?? ''}`;
    const out = join(db.dir, 'secret.backup');
    const backup = await runCommand('backup', ['--out', out], { env: { DATABASE_URL: withPassword.toString(), PATH }, cwd: db.dir });
    expect(backup.code, backup.stderr).toBe(0);
    // libpq also reads the password from a query parameter.
    const inQuery = new URL(db.url);
    inQuery.searchParams.set('password', 'pw-on-the-line');
    inQuery.searchParams.set('application_name', 'taskwise-restore');
    const restore = await runCommand('restore', [out, '--force'], { env: { DATABASE_URL: inQuery.toString(), PATH }, cwd: db.dir });
    expect(restore.code, restore.stderr).toBe(0);

    const calls = readFileSync(join(bin, 'calls.log'), 'utf8').trimEnd().split('\n');
    expect(calls).toHaveLength(4);
    expect(calls.filter((line) => line.includes('pw-on-the-line'))).toEqual(['PGPASSWORD=pw-on-the-line', 'PGPASSWORD=pw-on-the-line']);
    expect(calls[0]).toMatch(/\/pg_dump .*--dbname=postgres/);
    expect(calls[2]).toMatch(/\/pg_restore --dbname=postgres:\/\/\S+\?application_name=taskwise-restore /);
  }, 60_000);
});
