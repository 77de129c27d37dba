import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrate.ts';
import { sweep } from '../plugins/housekeeping.ts';
import { createSignedInUser, nextIp, uniqueEmail } from './factories.ts';
import { DAY, isPostgres, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('database', () => {
  it('is migrated at start, and migrating again changes nothing', async () => {
    // Only this file's schema: Kysely's introspector reads every schema of the database, and
    // another test file may drop its own meanwhile.
    const { rows } = isPostgres
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(t.app.db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.app.db);
    const names = rows.map((table) => table.name);
    for (const table of ['users', 'otp_codes', 'sessions', 'tasks', 'login_failures']) expect(names).toContain(table);
    const again = await migrateToLatest(t.app.db as Kysely<unknown>, t.app.dbDialect);
    expect(again.results).toEqual([]);
  });

  it.runIf(!isPostgres)('runs SQLite in WAL mode with foreign keys, full fsync on commit and statement journals in memory', async () => {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(t.app.db.withoutPlugins())).rows[0] as object)[0] as unknown;
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('synchronous')).toBe(2);
    expect(await pragma('busy_timeout')).toBe(5000);
    // 2: MEMORY (a write's statement journals never go to a temporary file; decision 172).
    expect(await pragma('temp_store')).toBe(2);
  });

  it.runIf(isPostgres)('keeps its tables in the schema of its search_path', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.db);
    expect(rows[0]!.schema).toMatch(/^test_/);
  });
});

describe('housekeeping', () => {
  it('deletes expired sessions, day-old codes and failures outside the lock-out window', async () => {
    const { user } = await createSignedInUser(t);
    const email = uniqueEmail();
    expect((await t.request('POST', '/api/otps', { body: { email }, ip: nextIp() })).status).toBe(201);
    expect((await t.request('POST', '/api/users/login', { body: { email, password: 'nope' }, ip: nextIp() })).status).toBe(401);
    const count = async () => ({
      sessions: (await t.app.db.selectFrom('sessions').select('tokenHash').where('userId', '=', user.id).execute()).length,
      otpCodes: (await t.app.db.selectFrom('otpCodes').select('id').where('email', '=', email).execute()).length,
      loginFailures: (await t.app.db.selectFrom('loginFailures').select('id').where('email', '=', email).execute()).length,
    });
    await sweep(t.app);
    expect(await count()).toEqual({ sessions: 1, otpCodes: 1, loginFailures: 1 });
    t.clock.advance(30 * DAY);
    await sweep(t.app);
    expect(await count()).toEqual({ sessions: 0, otpCodes: 0, loginFailures: 0 });
  });
});
