import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** SQLite-only statements of the operations commands (npm run backup / restore). */
export function createMaintenanceRepository(db: Kysely<DB>) {
  return {
    /**
     * A consistent copy of the whole database into a new file, taken in one read transaction:
     * in WAL mode writers carry on meanwhile, and the copy holds exactly the commits made
     * before it started. @see https://www.sqlite.org/lang_vacuum.html#vacuuminto
     */
    async vacuumInto(file: string): Promise<void> {
      await sql`vacuum into ${file}`.execute(db);
    },

    /** "ok", or the problems SQLite found. @see https://www.sqlite.org/pragma.html#pragma_integrity_check */
    async integrityCheck(): Promise<string[]> {
      // One text column, `integrity_check` (`integrityCheck` once the camel-case plugin renamed it).
      const { rows } = await sql<Record<string, string>>`pragma integrity_check`.execute(db);
      return rows.map((row) => Object.values(row)[0] ?? '');
    },

    async tableNames(): Promise<string[]> {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
      return rows.map((row) => row.name);
    },
  };
}
