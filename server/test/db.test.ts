import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrate.ts';
import { isPostgres, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('database', () => {
  it('is migrated at start, and migrating again changes nothing', async () => {
    const tables = await t.app.db.introspection.getTables();
    const names = tables.map((table) => table.name);
    for (const table of ['users', 'otp_codes', 'sessions', 'tasks', 'login_failures']) expect(names).toContain(table);
    const again = await migrateToLatest(t.app.db as Kysely<unknown>, t.app.dbDialect);
    expect(again.results).toEqual([]);
  });

  it.runIf(!isPostgres)('runs SQLite in WAL mode with foreign keys and full fsync on commit', async () => {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(t.app.db.withoutPlugins())).rows[0] as object)[0] as unknown;
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('synchronous')).toBe(2);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it.runIf(isPostgres)('keeps its tables in the schema of its search_path', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.db);
    expect(rows[0]!.schema).toMatch(/^test_/);
  });
});
