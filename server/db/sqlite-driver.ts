import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { constants as sqliteConstants, DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult } from 'kysely';
import { BySqlText, run, STATEMENT_CACHE_MAX } from './driver-shared.ts';
import { optionsOf } from './prepared.ts';
import type { DB } from './schema.ts';
import { StablePlanSqliteQueryCompiler } from './sqlite-compiler.ts';

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
 * Node's built-in node:sqlite behind Kysely (one connection; node:sqlite runs each statement
 * synchronously). Statements are cached by SQL text: a hot query is parsed and planned once
 * per process, and with `+?` parameters (sqlite-compiler.ts) it stays so. A prepared statement's options
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
  readonly #objects = new BySqlText<CachedStatement>();
  readonly #arrays = new BySqlText<CachedStatement>();
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

/** The app's SQLite database file, opened (and created if missing) for reading and writing. */
export function openSqlite(file: string): Kysely<DB> {
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
  // SQLite's default page cache is 2 MB. A page of "all my tasks" for a person on 50 boards reads
  // a few index pages per board and status, a little over that: with the default, every run
  // evicted what it had just read and a page took 10-20 ms instead of about 1 ms (decision 051).
  // 64 MB is an upper bound, filled only as pages are read; the OS page cache holds the rest.
  sqlite.exec('pragma cache_size = -65536');
  // A statement that writes inside a transaction (a task write runs a dozen) keeps the pages it
  // changes in a statement journal, to undo that statement alone. With SQLite's default, a
  // journal over 64 KB goes to a temporary file: written, truncated, and opened again on nearly
  // every write transaction (a task's insert alone changes about fifteen index pages). In memory
  // it costs none of those calls: POST /api/tasks ran 25 % more per second (decision 172).
  // Temporary tables and indexes a query builds (a DISTINCT, a materialized CTE, a sort no index
  // serves) are kept in memory too: every list here is paged and index-ordered, so they are small.
  sqlite.exec('pragma temp_store = memory');
  const db = new Kysely<DB>({
    dialect: new TaskwiseSqliteDialect(new NodeSqliteConnection(sqlite, stats)),
    plugins: [new CamelCasePlugin()],
  });
  statementStats.set(db, stats);
  return db;
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
