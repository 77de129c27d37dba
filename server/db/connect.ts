import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { constants as sqliteConstants, DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  AbortedTransactionError,
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteQueryCompiler,
  type QueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { optionsOf, withoutPlugins } from './prepared.ts';
import type { DB } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

/** A PostgreSQL pool's connections right now (for the metrics endpoint). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL only; SQLite is one connection with no pool. */
  poolStats?: () => PoolStats;
}

/** Upper bound of cached statements; our SQL texts are a small fixed set, this only guards mistakes. */
const STATEMENT_CACHE_MAX = 500;

/** What SQLite compiled on one connection (see `sqliteStatementStats`). */
export interface StatementStats {
  /** Statements prepared: one per distinct SQL text while it stays in the cache. */
  prepared: number;
  /** Runs of a cached statement during which SQLite compiled it again (re-prepared it). */
  reprepared: number;
  /** SQL text of the last statement re-prepared, for the message of a failing check. */
  lastReprepared: string | null;
}

/** Runs the begin, commit and rollback of a transaction as plain statements on a connection. */
const run = (connection: DatabaseConnection, sqlText: string) => connection.executeQuery(CompiledQuery.raw(sqlText));

/**
 * Node's built-in node:sqlite behind Kysely (one connection; node:sqlite runs each statement
 * synchronously). Statements are cached by SQL text: a hot query is parsed and planned once
 * per process, and with `+?` parameters (below) it stays so. A prepared statement's options
 * (db/prepared.ts `optionsOf`) come with each run: rows as arrays get their own statement
 * (`setReturnArrays`), so the same text can be read both ways.
 *
 * Re-prepares are counted, not guessed: SQLite calls the authorizer only while it compiles a
 * statement. A statement's first prepare leaves a trail of authorizer calls; when the same trail
 * shows up again while the cached statement runs, SQLite re-prepared it. (Other compiling during
 * a run, such as FTS5 preparing its internal statements on a commit, leaves other trails.) Set
 * before the first statement is prepared (setting one later would expire them all), it costs a
 * callback per compiled name, and nothing once the statements are compiled.
 */
interface CachedStatement {
  statement: StatementSync;
  reader: boolean;
  /** The authorizer calls of its first compile (see above). */
  firstTrail: string;
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #sqlite: DatabaseSync;
  readonly #stats: StatementStats;
  /** By SQL text: statements returning row objects, and those returning arrays. */
  readonly #objects = new Map<string, CachedStatement>();
  readonly #arrays = new Map<string, CachedStatement>();
  readonly #trail: string[] = [];
  #compiled = 0;

  constructor(sqlite: DatabaseSync, stats: StatementStats) {
    this.#sqlite = sqlite;
    this.#stats = stats;
    sqlite.setAuthorizer((action, ...names) => {
      this.#compiled += 1;
      this.#trail.push(`${action} ${names.join(' ')}`);
      return sqliteConstants.SQLITE_OK;
    });
  }

  #statement(sqlText: string, arrays: boolean): CachedStatement {
    const cache = arrays ? this.#arrays : this.#objects;
    let cached = cache.get(sqlText);
    if (cached === undefined) {
      if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
      this.#trail.length = 0;
      const statement = this.#sqlite.prepare(sqlText);
      if (arrays) statement.setReturnArrays(true);
      cached = { statement, reader: statement.columns().length > 0, firstTrail: this.#trail.join('\n') };
      this.#stats.prepared += 1;
      cache.set(sqlText, cached);
    }
    return cached;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, reader, firstTrail } = this.#statement(query.sql, optionsOf(query).rowsAsArrays);
    const parameters = query.parameters as SQLInputValue[];
    const before = this.#compiled;
    this.#trail.length = 0;
    try {
      if (reader) return Promise.resolve({ rows: statement.all(...parameters) as R[] });
      const { changes, lastInsertRowid } = statement.run(...parameters);
      return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (this.#compiled !== before && this.#trail.join('\n').includes(firstTrail)) {
        this.#stats.reprepared += 1;
        this.#stats.lastReprepared = query.sql;
      }
    }
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- node:sqlite reads each row synchronously: nothing to await
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { statement } = this.#statement(query.sql, optionsOf(query).rowsAsArrays);
    for (const row of statement.iterate(...(query.parameters as SQLInputValue[]))) yield { rows: [row as R] };
  }

  close(): void {
    this.#objects.clear();
    this.#arrays.clear();
    if (this.#sqlite.isOpen) this.#sqlite.close();
  }
}

/**
 * The driver of NodeSqliteConnection. Transactions begin with BEGIN IMMEDIATE, not Kysely's
 * plain BEGIN, which takes the write lock only at the first write: a second process writing the
 * same file then fails at once with SQLITE_BUSY, because busy_timeout does not apply to a lock
 * upgrade inside a transaction. BEGIN IMMEDIATE takes the lock up front, so another writer waits
 * (busy_timeout) instead. Within this process nothing changes: one connection, used one at a time.
 * @see https://www.sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions
 */
class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection;

  constructor(connection: NodeSqliteConnection) {
    this.#connection = connection;
  }

  init(): Promise<void> {
    return Promise.resolve();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.#connection);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await run(connection, 'begin immediate');
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await run(connection, 'commit');
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await run(connection, 'rollback');
  }
  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    this.#connection.close();
    return Promise.resolve();
  }
}

const statementStats = new WeakMap<Kysely<DB>, StatementStats>();

/**
 * How many statements SQLite compiled for a SQLite `db`, and re-compiled (undefined on
 * PostgreSQL): server/test/db-statements.test.ts checks the hot calls re-prepare nothing.
 */
export function sqliteStatementStats(db: Kysely<DB>): Readonly<StatementStats> | undefined {
  return statementStats.get(db);
}

/**
 * Every bound parameter is written `+?` instead of `?`. SQLite's planner marks a statement
 * "re-prepare when this parameter is rebound" where a bound value could change the plan: a
 * `LIMIT ?`, and (3.54) any `col = ?` term of a join or ordered query. node:sqlite clears the
 * bindings on every run, and sqlite3_clear_bindings() expires a statement with any such mark, so
 * with plain `?` those statements would be parsed and planned again on every call. The
 * unary plus is a no-op on the value (no affinity, as a bare parameter has none; still usable
 * for index lookups), but the planner does not look through it at bound values, so no mark is
 * set and a cached statement stays compiled: the plan is the one the first prepare made, as with
 * SQLite's query-planner stability guarantee. docs/performance.md has the evidence;
 * server/test/db-statements.test.ts counts re-prepares so this cannot silently come back.
 */
class StablePlanSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

class TaskwiseSqliteDialect extends SqliteDialect {
  readonly #connection: NodeSqliteConnection;

  constructor(connection: NodeSqliteConnection) {
    // Kysely's own SQLite driver is replaced below; its config is never used.
    super({ database: { close: () => undefined, prepare: () => ({ reader: false, all: () => [], run: () => ({ changes: 0, lastInsertRowid: 0 }), iterate: () => [][Symbol.iterator]() }) } });
    this.#connection = connection;
  }

  override createDriver(): Driver {
    return new NodeSqliteDriver(this.#connection);
  }

  override createQueryCompiler(): QueryCompiler {
    return new StablePlanSqliteQueryCompiler();
  }
}

function openSqlite(file: string): Database {
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new DatabaseSync(file);
  const stats: StatementStats = { prepared: 0, reprepared: 0, lastReprepared: null };
  sqlite.exec('pragma journal_mode = WAL');
  // WAL + synchronous=NORMAL already survives a killed process (committed transactions sit in
  // the WAL file, which the OS keeps), but may lose the last commits on power loss or an OS
  // crash. A 2xx here means "stored", so we pay one fsync per commit (FULL); reads, the hot
  // path, are unaffected. @see https://www.sqlite.org/pragma.html#pragma_synchronous
  sqlite.exec('pragma synchronous = FULL');
  sqlite.exec('pragma foreign_keys = ON');
  // A second process (e.g. `npm run db:migrate`, a backup) may hold the write lock briefly.
  sqlite.exec('pragma busy_timeout = 5000');
  const db = new Kysely<DB>({
    dialect: new TaskwiseSqliteDialect(new NodeSqliteConnection(sqlite, stats)),
    plugins: [new CamelCasePlugin()],
  });
  statementStats.set(db, stats);
  return { db, dialect: 'sqlite' };
}

/**
 * A SQLite file opened read-only, as it is (no pragma changes it, not even the journal mode):
 * `npm run restore` inspects a backup and the database it would replace with it.
 */
export function openSqliteReadOnly(file: string): Kysely<DB> {
  const sqlite = new DatabaseSync(file, { readOnly: true });
  return new Kysely<DB>({
    dialect: new TaskwiseSqliteDialect(new NodeSqliteConnection(sqlite, { prepared: 0, reprepared: 0, lastReprepared: null })),
    plugins: [new CamelCasePlugin()],
  });
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
  readonly #names: Map<string, string>;
  /** Set when a rollback failed: the client goes back to the pool to be destroyed, not reused. */
  broken = false;

  constructor(client: pg.PoolClient, names: Map<string, string>) {
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
  readonly #names = new Map<string, string>();
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

function openPostgres(url: string, onPoolError: (error: Error) => void): Database {
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
  return { db, dialect: 'postgres', poolStats };
}

export function openDatabase(config: DatabaseConfig, onPoolError: (error: Error) => void): Database {
  return config.kind === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url, onPoolError);
}

const SELECT_ONE = CompiledQuery.raw('select 1');

/** Resolves when the database answers `select 1`; rejects on error or after `timeoutMs`. */
export async function ping(db: Kysely<DB>, timeoutMs: number): Promise<void> {
  // CamelCasePlugin has nothing to rename in `select 1`.
  const plain = withoutPlugins(db);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`No answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([plain.executeQuery(SELECT_ONE), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
