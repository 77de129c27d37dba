import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

/**
 * Applies every pending migration. Run at every start (plugins/db.ts) and by `npm run db:migrate`.
 * Kysely's migrator takes a lock, so several instances starting against one PostgreSQL
 * database apply each migration exactly once.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: 'sqlite' | 'postgres',
): Promise<MigrationResultSet> {
  // Migrations are frozen in time: they run without the app's plugins (no CamelCasePlugin).
  const plain = db.withoutPlugins();
  // On PostgreSQL, keep the migration tables in the schema the app uses (search_path): the
  // migrator's existence check looks across all schemas and would otherwise be fooled by
  // another schema's kysely_migration table.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(plain)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: plain,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Numbers are reserved per feature and land in any order (0006 may ship before 0005): a
    // database that already has a later one still gets an earlier newcomer applied.
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const result = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed`, { cause: result.error });
  }
  return result;
}
