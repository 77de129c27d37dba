import type { Kysely } from 'kysely';
import { migratorFor } from '../db/migrate.ts';
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

// The app's own migrator: on PostgreSQL it reads only this file's schema, so another test
// file dropping its schema meanwhile cannot fail it.
export const migratorOf = (db: Kysely<unknown>) => migratorFor(db, isPostgres ? 'postgres' : 'sqlite');
