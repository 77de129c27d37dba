import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { constants as sqliteConstants, DatabaseSync, type SQLInputValue } from 'node:sqlite';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  SqliteQueryCompiler,
  type QueryCompiler,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { PLAN_PER_RUN, returnsArrays, withoutMarkers, withoutPlugins } from './prepared.ts';
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

/**
 * Node's built-in node:sqlite behind Kysely's SQLite dialect. Kysely's driver calls `prepare()`
 * for every query; memoizing by SQL text means a hot query is parsed and planned once per
 * process, and with `+?` parameters (below) it stays so.
 *
 * Re-prepares are counted, not guessed: SQLite calls the authorizer only while it compiles a
 * statement. A statement's first prepare leaves a trail of authorizer calls; when the same trail
 * shows up again while the cached statement runs, SQLite re-prepared it. (Other compiling during
 * a run, such as FTS5 preparing its internal statements on a commit, leaves other trails.) Set
 * before the first statement is prepared (setting one later would expire them all), it costs a
 * callback per compiled name, and nothing once the statements are compiled.
 */
function memoizedPrepare(sqlite: DatabaseSync, stats: StatementStats): SqliteDatabase {
  let compiled = 0;
  const trail: string[] = [];
  sqlite.setAuthorizer((action, ...names) => {
    compiled += 1;
    trail.push(`${action} ${names.join(' ')}`);
    return sqliteConstants.SQLITE_OK;
  });
  const counted = <T>(sqlText: string, firstTrail: string, run: () => T): T => {
    const before = compiled;
    trail.length = 0;
    const result = run();
    if (compiled !== before && trail.join('\n').includes(firstTrail)) {
      stats.reprepared += 1;
      stats.lastReprepared = sqlText;
    }
    return result;
  };
  const cache = new Map<string, SqliteStatement>();
  return {
    prepare(sqlText) {
      let statement = cache.get(sqlText);
      if (statement === undefined) {
        if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
        trail.length = 0;
        const prepared = sqlite.prepare(sqlText);
        if (returnsArrays(sqlText)) prepared.setReturnArrays(true);
        const firstTrail = trail.join('\n');
        stats.prepared += 1;
        statement = {
          // Kysely passes the parameters as one array.
          reader: prepared.columns().length > 0,
          all: (parameters) => counted(sqlText, firstTrail, () => prepared.all(...(parameters as SQLInputValue[]))),
          run: (parameters) => counted(sqlText, firstTrail, () => prepared.run(...(parameters as SQLInputValue[]))),
          iterate: (parameters) => prepared.iterate(...(parameters as SQLInputValue[])),
        };
        cache.set(sqlText, statement);
      }
      return statement;
    },
    close() {
      cache.clear();
      if (sqlite.isOpen) sqlite.close();
    },
  };
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
 * Kysely's SQLite driver opens transactions with a plain BEGIN, which takes the write lock only
 * at the first write; a second process writing the same file then fails at once with
 * SQLITE_BUSY, because busy_timeout does not apply to a lock upgrade inside a transaction.
 * BEGIN IMMEDIATE takes the lock up front, so another writer waits (busy_timeout) instead.
 * Within this process nothing changes: node:sqlite is one connection, used one at a time.
 * @see https://www.sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
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
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
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
    dialect: new TaskwiseSqliteDialect({ database: memoizedPrepare(sqlite, stats) }),
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
    dialect: new TaskwiseSqliteDialect({ database: memoizedPrepare(sqlite, { prepared: 0, reprepared: 0, lastReprepared: null }) }),
    plugins: [new CamelCasePlugin()],
  });
}

const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;


/**
 * Wraps pg's pool so data queries run as named prepared statements: PostgreSQL parses and plans
 * each distinct SQL text once per connection instead of on every request. The name is derived
 * from the SQL text, so the same text always maps to the same statement.
 */
class PreparedStatementPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #names = new Map<string, string>();
  /** Kysely keys its connection objects by client, so each pg client keeps one wrapper. */
  readonly #wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  readonly #onError: (error: Error) => void;

  constructor(pool: pg.Pool, onError: (error: Error) => void) {
    this.#pool = pool;
    this.#onError = onError;
  }

  get options(): object {
    return this.#pool.options;
  }

  #nameOf(sqlText: string): string | undefined {
    if (sqlText.startsWith(PLAN_PER_RUN) || !PREPARABLE.test(withoutMarkers(sqlText))) return undefined;
    let name = this.#names.get(sqlText);
    if (name === undefined) {
      if (this.#names.size >= STATEMENT_CACHE_MAX) return undefined;
      name = `tw_${createHash('sha1').update(sqlText).digest('hex').slice(0, 24)}`;
      this.#names.set(sqlText, name);
    }
    return name;
  }

  #wrap(client: pg.PoolClient): PostgresPoolClient {
    const nameOf = (sqlText: string) => this.#nameOf(sqlText);
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(
      sqlOrCursor: string | PostgresCursor<R>,
      parameters?: readonly unknown[],
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof sqlOrCursor !== 'string') throw new Error('Streaming queries are not supported.');
      const name = nameOf(sqlOrCursor);
      const values = (parameters ?? []) as unknown[];
      // Without a name the statement is unnamed (planned for this run only).
      const config: pg.QueryConfig = { name, text: sqlOrCursor, values };
      const result = returnsArrays(sqlOrCursor) ? client.query({ ...config, rowMode: 'array' }) : client.query(config);
      return result as unknown as Promise<PostgresQueryResult<R>>;
    }
    return {
      query,
      release: (destroy?: boolean) => {
        client.release(destroy);
      },
    };
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.#pool.connect();
    let wrapper = this.#wrappers.get(client);
    if (wrapper === undefined) {
      wrapper = this.#wrap(client);
      this.#wrappers.set(client, wrapper);
      // pg-pool listens for errors only while a client is idle. A connection that dies while
      // checked out between two statements (e.g. inside a transaction) would otherwise emit an
      // unhandled 'error' and crash the process; its pending and next queries fail instead
      // (503), and pg-pool discards it on release because it is no longer queryable.
      client.on('error', this.#onError);
    }
    return wrapper;
  }

  end(): Promise<void> {
    return this.#pool.end();
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
    dialect: new PostgresDialect({ pool: new PreparedStatementPool(pool, onPoolError) }),
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
