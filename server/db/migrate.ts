import { sql, type DatabaseIntrospector, type Kysely } from 'kysely';
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
  const result = await (await migratorFor(db, dialect)).migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed`, { cause: result.error });
  }
  return result;
}

/**
 * The migrator over the one history of migrations (also for tests that stop at one of them,
 * server/test/migration-support.ts).
 */
export async function migratorFor(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<Migrator> {
  // Migrations are frozen in time: they run without the app's plugins (no CamelCasePlugin).
  const plain = db.withoutPlugins();
  // On PostgreSQL, keep the migration tables in the schema the app uses (search_path): the
  // migrator's existence check looks across all schemas and would otherwise be fooled by
  // another schema's kysely_migration table.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(plain)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: schema === undefined ? plain : withIntrospectionOf(plain, schema),
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Numbers are reserved per feature and land in any order (0006 may ship before 0005): a
    // database that already has a later one still gets an earlier newcomer applied.
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/**
 * `db` whose introspector sees only `schema`, for the migrator. It asks the introspector whether
 * its two tables exist, and PostgreSQL's default one reads every column of every table of every
 * schema of the database, calling pg_get_serial_sequence() on each: slow where a database holds
 * many schemas (the test suite gives each test app its own), and failing ("schema … does not
 * exist") when another schema is dropped while it reads. The migrator only needs the names of
 * the tables of its own schema.
 */
function withIntrospectionOf(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const getTables = async () => {
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
    return rows.map((row) => ({ name: row.name, schema, isView: false, isForeign: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    // current_schema() named it, so it exists.
    getSchemas: () => Promise.resolve([{ name: schema }]),
    getTables,
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property);
      // Kysely's methods read private fields: they must run on the instance itself.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
