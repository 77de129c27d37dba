import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { ConfigError, ensureDatabaseDirectory, loadConfig } from '../config.ts';
import { openDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL and exits (non-zero on failure). */
if (existsSync('.env')) process.loadEnvFile('.env');
try {
  const config = loadConfig(process.env);
  ensureDatabaseDirectory(config);
  const { db, dialect } = openDatabase(config.database, (error) => {
    console.error(error);
  });
  try {
    const { results = [] } = await migrateToLatest(db as Kysely<unknown>, dialect);
    const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
    process.stdout.write(applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
