import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import { openPostgres, type PoolStats } from './postgres-driver.ts';
import type { DB } from './schema.ts';
import { openSqlite } from './sqlite-driver.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL only; SQLite is one connection with no pool. */
  poolStats?: () => PoolStats;
}

/**
 * Opens the configured database through its driver: node:sqlite (sqlite-driver.ts, with the
 * `+?` parameters of sqlite-compiler.ts) or pg (postgres-driver.ts).
 */
export function openDatabase(config: DatabaseConfig, onPoolError: (error: Error) => void): Database {
  return config.kind === 'sqlite' ? { db: openSqlite(config.file), dialect: 'sqlite' } : { ...openPostgres(config.url, onPoolError), dialect: 'postgres' };
}
