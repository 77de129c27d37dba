import type { Kysely } from 'kysely';
import fp from 'fastify-plugin';
import { openDatabase, type Dialect } from '../db/connect.ts';
import type { PoolStats } from '../db/postgres-driver.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { DB } from '../db/schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>;
    dbDialect: Dialect;
    /** PostgreSQL: the connection pool's counts; null on SQLite. */
    dbPoolStats: (() => PoolStats) | null;
  }
}

/**
 * Opens the database named by DATABASE_URL, applies pending migrations (so every start, and
 * every test, runs on the current schema), and closes it when the app closes.
 */
export default fp(
  async (fastify) => {
    const { db, dialect, poolStats } = openDatabase(fastify.config.database, (error) => {
      const { code } = error as Error & { code?: unknown };
      fastify.log.warn({ code, message: error.message }, 'PostgreSQL connection error');
    });
    let destroyed = false;
    const destroy = async () => {
      if (destroyed) return;
      destroyed = true;
      await db.destroy();
    };
    try {
      await migrateToLatest(db as Kysely<unknown>, dialect);
    } catch (error) {
      await destroy();
      throw error;
    }
    fastify.decorate('db', db);
    fastify.decorate('dbDialect', dialect);
    fastify.decorate('dbPoolStats', poolStats ?? null);
    fastify.addHook('onClose', destroy);
  },
  { name: 'db', dependencies: ['config'] },
);
