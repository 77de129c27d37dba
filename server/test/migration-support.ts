import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from '../db/migrations/index.ts';
import { openPostgres } from '../db/postgres-driver.ts';
import { openSqlite } from '../db/sqlite-driver.ts';
import { isPostgres } from './helpers.ts';

/**
 * For tests of one migration: a database of the test file opened without the app's plugins, and
 * a migrator over the one history that can stop at any migration (`migrateTo`).
 */
export function openUnmigrated(url: string): Kysely<unknown> {
  return (isPostgres ? openPostgres(url, () => undefined).db : openSqlite(url.replace(/^file:/, ''))).withoutPlugins() as Kysely<unknown>;
}

export const migratorOf = async (db: Kysely<unknown>) =>
  new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
    ...(isPostgres ? { migrationTableSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s } : {}),
  });
