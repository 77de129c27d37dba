import { createHash } from 'node:crypto';
import {
  AbortedTransactionError,
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { BySqlText, run, STATEMENT_CACHE_MAX } from './driver-shared.ts';
import { optionsOf } from './prepared.ts';
import type { DB } from './schema.ts';

/** A PostgreSQL pool's connections right now (for the metrics endpoint). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;


/**
 * A pg client as a Kysely connection. Data queries run as named prepared statements:
 * PostgreSQL parses and plans each distinct SQL text once per connection instead of on every
 * request. The name is derived from the SQL text, so the same text always maps to the same
 * statement. A prepared statement's options (db/prepared.ts `optionsOf`) come with each run:
 * `planPerRun` runs it unnamed (planned for this run's values), `rowsAsArrays` asks pg for
 * array rows.
 */
class PgConnection implements DatabaseConnection {
  readonly client: pg.PoolClient;
  readonly #names: BySqlText<string>;
  /** Set when a rollback failed: the client goes back to the pool to be destroyed, not reused. */
  broken = false;

  constructor(client: pg.PoolClient, names: BySqlText<string>) {
    this.client = client;
    this.#names = names;
  }

  #nameOf(sqlText: string): string | undefined {
    if (!PREPARABLE.test(sqlText)) return undefined;
    let name = this.#names.get(sqlText);
    if (name === undefined) {
      if (this.#names.size >= STATEMENT_CACHE_MAX) return undefined;
      name = `tw_${createHash('sha1').update(sqlText).digest('hex').slice(0, 24)}`;
      this.#names.set(sqlText, name);
    }
    return name;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const options = optionsOf(query);
    const config: pg.QueryConfig = {
      // Without a name the statement is unnamed (planned for this run only).
      name: options.planPerRun ? undefined : this.#nameOf(query.sql),
      text: query.sql,
      values: query.parameters as unknown[],
    };
    const result = options.rowsAsArrays ? await this.client.query({ ...config, rowMode: 'array' }) : await this.client.query(config);
    const { command, rowCount } = result;
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier error aborted the transaction.
    if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] };
    const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: result.rows as R[] };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported.');
  }
}

/** Kysely's driver for pg, reduced to what the app uses, on PgConnection. */
class PgDriver implements Driver {
  readonly #pool: pg.Pool;
  readonly #onError: (error: Error) => void;
  readonly #names = new BySqlText<string>();
  /** Kysely keys its connection objects by client, so each pg client keeps one wrapper. */
  readonly #connections = new WeakMap<pg.PoolClient, PgConnection>();

  constructor(pool: pg.Pool, onError: (error: Error) => void) {
    this.#pool = pool;
    this.#onError = onError;
  }

  init(): Promise<void> {
    return Promise.resolve();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#pool.connect();
    let connection = this.#connections.get(client);
    if (connection === undefined) {
      connection = new PgConnection(client, this.#names);
      this.#connections.set(client, connection);
      // pg-pool listens for errors only while a client is idle. A connection that dies while
      // checked out between two statements (e.g. inside a transaction) would otherwise emit an
      // unhandled 'error' and crash the process; its pending and next queries fail instead
      // (503), and pg-pool discards it on release because it is no longer queryable.
      client.on('error', this.#onError);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = [settings.isolationLevel === undefined ? '' : ` isolation level ${settings.isolationLevel}`, settings.accessMode === undefined ? '' : ` ${settings.accessMode}`].join('');
    await run(connection, mode === '' ? 'begin' : `start transaction${mode}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const { rows } = await run(connection, 'commit');
    if ((rows[0] as { command?: string } | undefined)?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await run(connection, 'rollback');
    } catch (error) {
      if (connection instanceof PgConnection) connection.broken = true;
      throw error;
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof PgConnection) connection.client.release(connection.broken);
    return Promise.resolve();
  }

  destroy(): Promise<void> {
    return this.#pool.end();
  }
}

class TaskwisePostgresDialect extends PostgresDialect {
  readonly #driver: PgDriver;

  constructor(driver: PgDriver) {
    // Kysely's own pg driver is replaced below; its pool config is never used.
    super({ pool: () => Promise.reject(new Error('unused')) });
    this.#driver = driver;
  }

  override createDriver(): Driver {
    return this.#driver;
  }
}

/** A PostgreSQL pool behind Kysely, with its counts for the metrics endpoint. */
export function openPostgres(url: string, onPoolError: (error: Error) => void): { db: Kysely<DB>; poolStats: () => PoolStats } {
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', onPoolError);
  // PostgreSQL's default random_page_cost (4) models spinning disks. With it, the planner joins
  // the board query's few rows to `users` by scanning the whole users table into a hash (3 ms
  // at 10,000 users, growing with them) instead of a primary-key lookup per row (0.1 ms); at
  // 1.1, the usual value for SSDs and cached data, it picks the lookups for a small board and
  // still the hash join for a big one (bench/RESULTS.md, growth). Set per session, so it only
  // touches this app's connections; pg runs it before any query of a new client.
  pool.on('connect', (client) => {
    client.query('set random_page_cost = 1.1').catch(onPoolError);
  });
  const db = new Kysely<DB>({
    dialect: new TaskwisePostgresDialect(new PgDriver(pool, onPoolError)),
    plugins: [new CamelCasePlugin()],
  });
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, poolStats };
}
