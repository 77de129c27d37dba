/**
 * Benchmark databases and fast seeding. A target is a fresh SQLite file or a fresh PostgreSQL
 * database (created next to the one TEST_DATABASE_URL names, dropped afterwards). The schema
 * comes from the app's own migrations (`server/db/migrate-cli.ts`, i.e. `npm run db:migrate`);
 * rows are then written directly in batches, in the shapes the server itself writes
 * (server/db/schema.ts: text ids, ISO 8601 UTC text timestamps).
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { SESSION_POLICY, type Priority, type TaskStatus } from '#shared/constants.ts';
import type { TasksTable } from '#server/db/schema.ts';
import { keysBetween } from '#server/services/order-keys.ts';
import type { BenchSection, TargetResult } from '../suite.ts';
import { repoRoot } from './env.ts';

export type DbKind = 'sqlite' | 'postgres';

export interface DbTarget {
  kind: DbKind;
  /** "SQLite" or "PostgreSQL". */
  label: string;
  /** DATABASE_URL for the servers. */
  url: string;
  drop(): Promise<void>;
}

export const dbLabel = (kind: DbKind): string => (kind === 'sqlite' ? 'SQLite' : 'PostgreSQL');

/** The databases a run measures on: SQLite, and PostgreSQL when TEST_DATABASE_URL gives one. */
export const databaseKinds = (opts: { postgresUrl: string | undefined }): DbKind[] => (opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres']);

/** `run` on each database of the run, one after the other: its section, carrying its targets. */
export async function sectionsPerDatabase(
  opts: { postgresUrl: string | undefined },
  run: (kind: DbKind) => Promise<{ section: BenchSection; targets: TargetResult[] }>,
): Promise<BenchSection[]> {
  const sections: BenchSection[] = [];
  for (const kind of databaseKinds(opts)) {
    const { section, targets } = await run(kind);
    sections.push({ ...section, targets });
  }
  return sections;
}

export function sqliteTarget(dir: string, name: string): DbTarget {
  const file = join(dir, `${name}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  return {
    kind: 'sqlite',
    label: 'SQLite',
    url: `file:${file}`,
    drop: () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      return Promise.resolve();
    },
  };
}

/** A new database `twbench_<name>_<pid>` on the server of `baseUrl`; dropped by `drop()`. */
export async function postgresTarget(baseUrl: string, name: string): Promise<DbTarget> {
  const dbName = `twbench_${name.replaceAll(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.query(`create database "${dbName}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  return {
    kind: 'postgres',
    label: 'PostgreSQL',
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${dbName}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function makeTarget(kind: DbKind, opts: { tmpDir: string; postgresUrl: string | undefined }, name: string): Promise<DbTarget> {
  if (kind === 'sqlite') return sqliteTarget(opts.tmpDir, name);
  if (opts.postgresUrl === undefined) throw new Error('no PostgreSQL URL');
  return postgresTarget(opts.postgresUrl, name);
}

/** Applies the app's migrations the way `npm run db:migrate` does. */
export function migrate(target: DbTarget): void {
  const result = spawnSync(process.execPath, ['server/db/migrate-cli.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: target.url, SESSION_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`migration of ${target.label} failed: ${result.stderr || result.stdout}`);
}

// ---------------------------------------------------------------------------------------------
// Rows

export interface UserSeed {
  id: string;
  email: string;
  fullName: string;
  passwordHash: string;
}

/** A task row as the bench writes it (`version` takes its column default, 1). */
export type TaskSeed = Omit<TasksTable, 'version' | 'checklistDone' | 'checklistTotal' | 'repeatEvery' | 'repeatUnit' | 'columnId' | 'position' | 'startAt' | 'attachmentCount' | 'coverId' | 'coverWidth' | 'coverHeight' | 'labelIds'>;

/** Every benchmark user signs in with this password. */
export const BENCH_PASSWORD = 'bench-password-1234';
let benchHash: Promise<string> | undefined;
/** One real argon2id hash of BENCH_PASSWORD, shared by all benchmark users. */
export function benchPasswordHash(): Promise<string> {
  benchHash ??= hash(BENCH_PASSWORD);
  return benchHash;
}
/** Users nobody signs in as (the "other users" of a big table) get this unusable value. */
export const NO_LOGIN_HASH = '$argon2id$v=19$m=19456,t=2,p=1$bm9sb2dpbg$bm9sb2dpbm5vbG9naW5ub2xvZ2lubm9sb2dpbg';

let idPool = Buffer.alloc(0);
let idOffset = 0;
/** 16 random bytes as 22 base64url characters, like server/db/ids.ts, drawn from a buffer. */
export function newId(): string {
  if (idOffset + 16 > idPool.length) {
    idPool = randomBytes(16 * 65_536);
    idOffset = 0;
  }
  const id = idPool.toString('base64url', idOffset, idOffset + 16);
  idOffset += 16;
  return id;
}

/** Small deterministic PRNG (mulberry32): the same data every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['Review', 'Draft', 'Update', 'Fix', 'Prepare', 'Plan', 'Test', 'Ship', 'Write', 'Check', 'Clean up', 'Migrate'];
const THINGS = ['the quarterly report', 'onboarding checklist', 'release notes', 'invoice batch', 'login page copy', 'backup job', 'pricing table', 'customer survey', 'API docs', 'sprint board', 'holiday rota', 'security review'];
const PROJECTS = ['', '', 'Website', 'Q3 launch', 'Finance', 'Hiring', 'Mobile app', 'Ops'];

/**
 * Makes task rows: creation times step forward from a year ago (newest last), a realistic mix
 * of priorities (urgent 10 %, high 25 %, normal 50 %, low 15 %) and deadlines (a third none).
 */
export class TaskFactory {
  readonly #random: () => number;
  #clock: number;
  readonly #nowMs = Date.now();

  constructor(seed = 1) {
    this.#random = prng(seed);
    this.#clock = this.#nowMs - 365 * 24 * 3600_000;
  }

  /** `boardId`: the task's board; by default its creator's personal board (whose id is the creator's id). */
  task(fields: { createdBy: string; assigneeEmail: string; boardId?: string; status?: TaskStatus; priority?: Priority }): TaskSeed {
    const r = this.#random;
    // Creation times advance ~3 s per task; a million tasks still fit in the past year.
    this.#clock += 1 + Math.floor(r() * 5000);
    const createdAt = new Date(Math.min(this.#clock, this.#nowMs - 1000)).toISOString();
    const p = r();
    const priority: Priority = fields.priority ?? (p < 0.1 ? 'urgent' : p < 0.35 ? 'high' : p < 0.85 ? 'normal' : 'low');
    const d = r();
    const deadline = d < 0.34 ? null : new Date(this.#nowMs + Math.floor((d - 0.5) * 60 * 24 * 3600_000)).toISOString();
    return {
      id: newId(),
      workTitle: PROJECTS[Math.floor(r() * PROJECTS.length)]!,
      taskTitle: `${VERBS[Math.floor(r() * VERBS.length)]!} ${THINGS[Math.floor(r() * THINGS.length)]!} #${Math.floor(r() * 100_000)}`,
      assigneeEmail: fields.assigneeEmail,
      createdBy: fields.createdBy,
      boardId: fields.boardId ?? fields.createdBy,
      deadline,
      priority,
      status: fields.status ?? (r() < 0.3 ? 'done' : 'todo'),
      description: '',
      createdAt,
      updatedAt: createdAt,
    };
  }
}

export function user(email: string, fullName: string, passwordHash: string): UserSeed {
  return { id: newId(), email, fullName, passwordHash };
}

// ---------------------------------------------------------------------------------------------
// Batched writers

/** A shared board and its active members (each an account), all with the role `member`. */
export interface BoardSeed {
  id: string;
  name: string;
  members: readonly UserSeed[];
}

export interface Seeder {
  insertUsers(rows: readonly UserSeed[]): Promise<void>;
  /** Inserts shared boards and their (active) memberships; the members' accounts must exist. */
  insertBoards(rows: readonly BoardSeed[]): Promise<void>;
  /** Inserts `count` tasks made by `make(i)`, in chunks (never holds them all in memory). */
  insertTasks(count: number, make: (i: number) => TaskSeed): Promise<void>;
  /** Refreshes planner statistics (PostgreSQL: what autovacuum would have done by now). */
  analyze(): Promise<void>;
  countTasks(): Promise<number>;
  /** Empties the per-IP and per-address request budgets (they live in the database, shared by every instance). */
  clearRateLimits(): Promise<void>;
  /** A shared board with `members` as its active members, the first of them its admin. */
  insertBoard(id: string, name: string, members: readonly UserSeed[]): Promise<void>;
  /** A session for each user, stored as the app stores them (the token's SHA-256): their `cookie` header values. */
  insertSessions(users: readonly UserSeed[]): Promise<string[]>;
  /** Gives every task of each board `details.labels` labels of its board (created here) and a checklist of these counts; the labels' ids. */
  addTaskDetails(boardIds: readonly string[], details: TaskDetailsSeed): Promise<string[]>;
  /**
   * Adds `columns` after the board's two columns and deals each category's tasks out over all
   * the board's columns of that category, in turn, in key order (keys stay unique: every seeded
   * key is). The board's columns in order, each with its tasks' count.
   */
  spreadOverColumns(boardId: string, columns: readonly { name: string; category: TaskStatus }[]): Promise<{ id: string; category: TaskStatus; tasks: number }[]>;
  close(): Promise<void>;
}

/** What spreadOverColumns writes, planned from the board's columns and tasks (each in key order). */
function spreadPlan(
  boardId: string,
  existing: readonly { id: string; category: string; position: string }[],
  tasks: readonly { id: string; status: string }[],
  added: readonly { name: string; category: TaskStatus }[],
) {
  const keys = keysBetween(existing.at(-1)?.position ?? null, null, added.length);
  const newColumns = added.map((column, i) => [newId(), boardId, column.name, column.category, keys[i]!]);
  const columns = [...existing.map((c) => ({ id: c.id, category: c.category })), ...newColumns.map((c) => ({ id: c[0]!, category: c[3]! }))];
  const moves = new Map<string, string[]>(columns.map((c) => [c.id, []]));
  for (const category of ['todo', 'done']) {
    const of = columns.filter((c) => c.category === category);
    tasks.filter((t) => t.status === category).forEach((t, i) => moves.get(of[i % of.length]!.id)!.push(t.id));
  }
  return { newColumns, moves, columns: columns.map((c) => ({ id: c.id, category: c.category as TaskStatus, tasks: moves.get(c.id)!.length })) };
}
const COLUMN_SQL = (p: (i: number) => string) => `insert into board_columns (id, board_id, name, category, position) values (${[1, 2, 3, 4, 5].map(p).join(', ')})`;
const COLUMNS_OF_SQL = (p: string) => `select id, category, position from board_columns where board_id = ${p} order by position`;
const TASKS_OF_SQL = (p: string) => `select id, status from tasks where board_id = ${p} order by position`;

/** Labels and checklist counts that `addTaskDetails` puts on every task of a board. */
export interface TaskDetailsSeed {
  labels: number;
  checklist: { done: number; total: number };
}

const LABEL_COLUMNS = ['id', 'board_id', 'name', 'name_key', 'color', 'created_at', 'updated_at'];
const SEED_COLORS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'];
/** The label rows of `addTaskDetails`: `count` per board, named as people name them. */
function labelRows(boardIds: readonly string[], count: number): string[][] {
  const now = new Date().toISOString();
  const names = ['Bug', 'Design', 'Backend', 'Frontend', 'Customer', 'Blocked', 'Research', 'Ops', 'Docs', 'Release'];
  return boardIds.flatMap((board) =>
    Array.from({ length: count }, (_, i) => {
      const name = `${names[i % names.length]!}${i >= names.length ? ` ${i}` : ''}`;
      return [newId(), board, name, name.toLowerCase(), SEED_COLORS[i % SEED_COLORS.length]!, now, now];
    }),
  );
}
/** Every label of a task's board onto the task (`in (…)`: the boards, as placeholders). */
const TASK_LABELS_SQL = (boards: string) =>
  `insert into task_labels (task_id, label_id) select t.id, l.id from tasks t join labels l on l.board_id = t.board_id where t.board_id in (${boards})`;
const CHECKLIST_SQL = (boards: string, done: number, total: number) => `update tasks set checklist_done = ${done}, checklist_total = ${total} where board_id in (${boards})`;

const MEMBER_COLUMNS = ['board_id', 'email', 'user_id', 'role', 'added_at', 'added_by_name', 'added_by_email'];
const memberRows = (boardId: string, members: readonly UserSeed[], now: string): string[][] =>
  members.map((m, i) => [boardId, m.email, m.id, i === 0 ? 'admin' : 'member', now, members[0]?.fullName ?? '', members[0]?.email ?? '']);
const SESSION_COLUMNS = ['token_hash', 'user_id', 'created_at', 'expires_at', 'last_seen_at'];
/** Session rows and cookies as server/plugins/session.ts makes them (a random 256-bit token; the row holds its SHA-256). */
function sessionRows(users: readonly UserSeed[]): { rows: string[][]; cookies: string[] } {
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_POLICY.ttlMs).toISOString();
  const tokens = users.map(() => randomBytes(32).toString('base64url'));
  return {
    rows: users.map((u, i) => [createHash('sha256').update(tokens[i]!).digest('hex'), u.id, now.toISOString(), expires, now.toISOString()]),
    cookies: tokens.map((token) => `${SESSION_POLICY.cookieName}=${token}`),
  };
}
const BOARD_SQL = (p: (i: number) => string) => `insert into boards (id, name, description, personal, created_at, updated_at) values (${p(1)}, ${p(2)}, '', 0, ${p(3)}, ${p(4)})`;

const TASK_COLUMNS = ['id', 'work_title', 'task_title', 'assignee_email', 'created_by', 'deadline', 'priority', 'status', 'created_at', 'updated_at', 'board_id', 'position'];
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let seeded = 0;
/**
 * A seeded task's order key: a valid key of the app's fractional-index format ('e' and five
 * base-62 digits), unique across the run and falling as tasks are made, so newer tasks sort first.
 */
function seedKey(): string {
  let n = 62 ** 5 - 1 - seeded++;
  let digits = '';
  for (let i = 0; i < 5; i++) {
    digits = BASE62[n % 62]! + digits;
    n = Math.floor(n / 62);
  }
  return `e${digits}`;
}
const taskValues = (t: TaskSeed): (string | null)[] => [t.id, t.workTitle, t.taskTitle, t.assigneeEmail, t.createdBy, t.deadline, t.priority, t.status, t.createdAt, t.updatedAt, t.boardId, seedKey()];
/**
 * Seeded tasks go into their board's first column of their status (a seeded board has the two
 * columns every new board gets): `rows` are the task values in TASK_COLUMNS' order, as `v`.
 */
const placedTasks = (rows: string, names: (column: string, i: number) => string) =>
  `insert into tasks (${TASK_COLUMNS.join(', ')}, column_id) select ${TASK_COLUMNS.map(names).map((n) => `v.${n}`).join(', ')}, c.id from ${rows}
    join board_columns c on c.board_id = v.${names('board_id', 10)} and c.category = v.${names('status', 7)}`;
/** Every account has its personal board (id = the user's id) with itself as its active admin, as the app makes them. */
const PERSONAL_BOARDS_SQL = `insert into boards (id, name, description, personal, created_at, updated_at)
  select id, 'Personal', '', 1, created_at, created_at from users where id not in (select id from boards)`;
const PERSONAL_MEMBERS_SQL = `insert into board_members (board_id, email, user_id, role, added_at, added_by_name, added_by_email)
  select id, email, id, 'admin', created_at, full_name, email from users where id not in (select board_id from board_members)`;
const USER_COLUMNS = ['id', 'email', 'full_name', 'password_hash', 'created_at', 'updated_at'];
const BOARD_COLUMNS = ['id', 'name', 'description', 'personal', 'created_at', 'updated_at'];
const boardValues = (b: BoardSeed, now: string): (string | number)[] => [b.id, b.name, '', 0, now, now];
const memberValues = (b: BoardSeed, m: UserSeed, now: string): string[] => [b.id, m.email, m.id, 'member', now, m.fullName, m.email];
const userValues = (u: UserSeed, now: string): string[] => [u.id, u.email, u.fullName, u.passwordHash, now, now];

const CHUNK = 10_000;
/** From this many rows on, secondary indexes are rebuilt after the insert instead of during it. */
const BULK = 50_000;

function sqliteSeeder(file: string): Seeder {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  db.exec('pragma journal_mode = WAL');
  db.exec('pragma synchronous = NORMAL');
  // Random text ids land all over the primary-key and index b-trees: with SQLite's default 2 MB
  // page cache a million inserts thrash; 1 GB keeps them in memory (seeding only).
  db.exec('pragma cache_size = -1000000');
  db.exec('pragma temp_store = memory');
  const transaction = <A extends unknown[]>(body: (...args: A) => void) => (...args: A): void => {
    db.exec('begin');
    try {
      body(...args);
      db.exec('commit');
    } catch (error) {
      db.exec('rollback');
      throw error;
    }
  };
  const ROWS = 500;
  const placeholders = (cols: number, rows: number) => Array.from({ length: rows }, () => `(${Array.from({ length: cols }, () => '?').join(',')})`).join(',');
  // SQLite names the columns of a VALUES list column1, column2, …
  const taskInsert = (rows: number) => db.prepare(placedTasks(`(values ${placeholders(TASK_COLUMNS.length, rows)}) v`, (_, i) => `column${i + 1}`));
  const bulkTasks = taskInsert(ROWS);
  const insertRows = transaction((rows: TaskSeed[]) => {
    let i = 0;
    for (; i + ROWS <= rows.length; i += ROWS) bulkTasks.run(...rows.slice(i, i + ROWS).flatMap(taskValues));
    if (i < rows.length) taskInsert(rows.length - i).run(...rows.slice(i).flatMap(taskValues));
  });
  const userInsert = db.prepare(`insert into users (${USER_COLUMNS.join(',')}) values (${USER_COLUMNS.map(() => '?').join(',')})`);
  const insertUsers = transaction((rows: readonly UserSeed[], now: string) => {
    for (const u of rows) userInsert.run(...userValues(u, now));
    db.exec(PERSONAL_BOARDS_SQL);
    db.exec(PERSONAL_MEMBERS_SQL);
  });
  const boardInsert = db.prepare(`insert into boards (${BOARD_COLUMNS.join(',')}) values (${BOARD_COLUMNS.map(() => '?').join(',')})`);
  const memberInsert = db.prepare(`insert into board_members (${MEMBER_COLUMNS.join(',')}) values (${MEMBER_COLUMNS.map(() => '?').join(',')})`);
  const insertBoards = transaction((rows: readonly BoardSeed[], now: string) => {
    for (const b of rows) {
      boardInsert.run(...boardValues(b, now));
      for (const m of b.members) memberInsert.run(...memberValues(b, m, now));
    }
  });
  return {
    insertUsers(rows) {
      insertUsers(rows, new Date().toISOString());
      return Promise.resolve();
    },
    insertBoards(rows) {
      insertBoards(rows, new Date().toISOString());
      return Promise.resolve();
    },
    insertTasks(count, make) {
      // A big batch goes in without the secondary indexes, which are then rebuilt from the very
      // definitions the migrations created (sorting once beats a million random b-tree inserts).
      const indexes = count >= BULK
        ? (db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'tasks' and sql is not null").all() as unknown as { name: string; sql: string }[])
        : [];
      for (const index of indexes) db.exec(`drop index "${index.name}"`);
      for (let start = 0; start < count; start += CHUNK) {
        const rows: TaskSeed[] = [];
        for (let i = start; i < Math.min(count, start + CHUNK); i++) rows.push(make(i));
        insertRows(rows);
      }
      for (const index of indexes) db.exec(index.sql);
      return Promise.resolve();
    },
    analyze() {
      // The app never runs ANALYZE on SQLite, so neither does the benchmark: the planner works
      // from the schema alone, as it does in production.
      db.exec('pragma wal_checkpoint(TRUNCATE)');
      return Promise.resolve();
    },
    countTasks() {
      return Promise.resolve((db.prepare('select count(*) as n from tasks').get() as { n: number }).n);
    },
    clearRateLimits() {
      db.prepare('delete from rate_limit_hits').run();
      return Promise.resolve();
    },
    insertBoard(id, name, members) {
      const now = new Date().toISOString();
      transaction(() => {
        db.prepare(BOARD_SQL(() => '?')).run(id, name, now, now);
        const insert = db.prepare(`insert into board_members (${MEMBER_COLUMNS.join(',')}) values (${MEMBER_COLUMNS.map(() => '?').join(',')})`);
        for (const row of memberRows(id, members, now)) insert.run(...row);
      })();
      return Promise.resolve();
    },
    insertSessions(users) {
      const { rows, cookies } = sessionRows(users);
      transaction(() => {
        const insert = db.prepare(`insert into sessions (${SESSION_COLUMNS.join(',')}) values (${SESSION_COLUMNS.map(() => '?').join(',')})`);
        for (const row of rows) insert.run(...row);
      })();
      return Promise.resolve(cookies);
    },
    addTaskDetails(boardIds, details) {
      const boards = boardIds.map(() => '?').join(',');
      const labels = labelRows(boardIds, details.labels);
      transaction(() => {
        const insert = db.prepare(`insert into labels (${LABEL_COLUMNS.join(',')}) values (${LABEL_COLUMNS.map(() => '?').join(',')})`);
        for (const row of labels) insert.run(...row);
        db.prepare(TASK_LABELS_SQL(boards)).run(...boardIds);
        db.prepare(CHECKLIST_SQL(boards, details.checklist.done, details.checklist.total)).run(...boardIds);
      })();
      return Promise.resolve(labels.map((row) => row[0]!));
    },
    spreadOverColumns(boardId, added) {
      const existing = db.prepare(COLUMNS_OF_SQL('?')).all(boardId) as unknown as { id: string; category: string; position: string }[];
      const tasks = db.prepare(TASKS_OF_SQL('?')).all(boardId) as unknown as { id: string; status: string }[];
      const plan = spreadPlan(boardId, existing, tasks, added);
      transaction(() => {
        for (const row of plan.newColumns) db.prepare(COLUMN_SQL(() => '?')).run(...row);
        const move = db.prepare('update tasks set column_id = ? where id in (select value from json_each(?))');
        for (const [column, ids] of plan.moves) move.run(column, JSON.stringify(ids));
      })();
      return Promise.resolve(plan.columns);
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

async function postgresSeeder(url: string): Promise<Seeder> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const unnest = (cols: string[]) => cols.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const taskSql = placedTasks(`unnest(${unnest(TASK_COLUMNS)}) as v(${TASK_COLUMNS.join(', ')})`, (column) => column);
  const userSql = `insert into users (${USER_COLUMNS.join(', ')}) select * from unnest(${unnest(USER_COLUMNS)})`;
  const columnsOf = <T>(rows: readonly T[], values: (row: T) => (string | null)[], width: number) => {
    const cols: (string | null)[][] = Array.from({ length: width }, () => []);
    for (const row of rows) values(row).forEach((v, i) => cols[i]!.push(v));
    return cols;
  };
  return {
    async insertUsers(rows) {
      const now = new Date().toISOString();
      for (let i = 0; i < rows.length; i += CHUNK) {
        await client.query(userSql, columnsOf(rows.slice(i, i + CHUNK), (u) => userValues(u, now), USER_COLUMNS.length));
      }
      await client.query(PERSONAL_BOARDS_SQL);
      await client.query(PERSONAL_MEMBERS_SQL);
    },
    async insertBoards(rows) {
      const now = new Date().toISOString();
      const boardCols = columnsOf(rows, (b) => boardValues(b, now).map(String), BOARD_COLUMNS.length);
      await client.query(`insert into boards (${BOARD_COLUMNS.join(', ')}) select id, name, description, personal::integer, created_at, updated_at from unnest(${unnest(BOARD_COLUMNS)}) as b(${BOARD_COLUMNS.join(', ')})`, boardCols);
      const members = rows.flatMap((b) => b.members.map((m) => memberValues(b, m, now)));
      await client.query(`insert into board_members (${MEMBER_COLUMNS.join(', ')}) select * from unnest(${unnest(MEMBER_COLUMNS)})`, columnsOf(members, (v) => v, MEMBER_COLUMNS.length));
    },
    async insertTasks(count, make) {
      // As for SQLite: secondary indexes are dropped for a big batch and rebuilt from their own
      // definitions (pg_indexes.indexdef), constraint indexes (the primary key) stay.
      const { rows: indexes } =
        count >= BULK
          ? await client.query<{ name: string; def: string }>(
              `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'tasks'
                 and indexname not in (select conname from pg_constraint where conrelid = 'tasks'::regclass)`,
            )
          : { rows: [] };
      for (const index of indexes) await client.query(`drop index "${index.name}"`);
      for (let start = 0; start < count; start += CHUNK) {
        const rows: TaskSeed[] = [];
        for (let i = start; i < Math.min(count, start + CHUNK); i++) rows.push(make(i));
        await client.query(taskSql, columnsOf(rows, taskValues, TASK_COLUMNS.length));
      }
      for (const index of indexes) await client.query(index.def);
    },
    async analyze() {
      await client.query('vacuum analyze tasks');
      await client.query('vacuum analyze task_labels');
      await client.query('vacuum analyze labels');
      await client.query('vacuum analyze users');
      await client.query('vacuum analyze sessions');
      await client.query('vacuum analyze board_task_counts');
    },
    async countTasks() {
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from tasks');
      return rows[0]?.n ?? 0;
    },
    async clearRateLimits() {
      await client.query('delete from rate_limit_hits');
    },
    async insertBoard(id, name, members) {
      const now = new Date().toISOString();
      await client.query(BOARD_SQL((i) => `$${i}`), [id, name, now, now]);
      await client.query(`insert into board_members (${MEMBER_COLUMNS.join(', ')}) select * from unnest(${unnest(MEMBER_COLUMNS)})`, columnsOf(memberRows(id, members, now), (r) => r, MEMBER_COLUMNS.length));
    },
    async insertSessions(users) {
      const { rows, cookies } = sessionRows(users);
      await client.query(`insert into sessions (${SESSION_COLUMNS.join(', ')}) select * from unnest(${unnest(SESSION_COLUMNS)})`, columnsOf(rows, (r) => r, SESSION_COLUMNS.length));
      return cookies;
    },
    async addTaskDetails(boardIds, details) {
      const boards = boardIds.map((_, i) => `$${i + 1}`).join(', ');
      const labels = labelRows(boardIds, details.labels);
      await client.query(`insert into labels (${LABEL_COLUMNS.join(', ')}) select * from unnest(${unnest(LABEL_COLUMNS)})`, columnsOf(labels, (r) => r, LABEL_COLUMNS.length));
      await client.query(TASK_LABELS_SQL(boards), [...boardIds]);
      await client.query(CHECKLIST_SQL(boards, details.checklist.done, details.checklist.total), [...boardIds]);
      return labels.map((row) => row[0]!);
    },
    async spreadOverColumns(boardId, added) {
      const existing = (await client.query<{ id: string; category: string; position: string }>(COLUMNS_OF_SQL('$1'), [boardId])).rows;
      const tasks = (await client.query<{ id: string; status: string }>(TASKS_OF_SQL('$1'), [boardId])).rows;
      const plan = spreadPlan(boardId, existing, tasks, added);
      await client.query('begin');
      for (const row of plan.newColumns) await client.query(COLUMN_SQL((i) => `$${i}`), row);
      for (const [column, ids] of plan.moves) await client.query('update tasks set column_id = $1 where id = any($2::text[])', [column, ids]);
      await client.query('commit');
      return plan.columns;
    },
    close: () => client.end(),
  };
}

export async function openSeeder(target: DbTarget): Promise<Seeder> {
  return target.kind === 'sqlite' ? sqliteSeeder(target.url.slice('file:'.length)) : postgresSeeder(target.url);
}

// ---------------------------------------------------------------------------------------------
// Shapes of data the suites share

export interface BenchUser extends UserSeed {
  password: string;
}

/** A user who can sign in (BENCH_PASSWORD). */
export async function benchUser(label: string): Promise<BenchUser> {
  return { ...user(`${label}@bench.test`, `Bench ${label}`, await benchPasswordHash()), password: BENCH_PASSWORD };
}

/**
 * Tasks visible to `viewer`: half created by them (assigned to others), half created by others
 * and assigned to them, so both branches of the board query carry rows.
 */
export function visibleTasks(
  factory: TaskFactory,
  viewer: UserSeed,
  others: readonly UserSeed[],
  count: number,
  fields: { status?: TaskStatus } = {},
): (i: number) => TaskSeed {
  return (i) => {
    const other = others[i % others.length]!;
    return i % 2 === 0
      ? factory.task({ createdBy: viewer.id, assigneeEmail: other.email, ...fields })
      : factory.task({ createdBy: other.id, assigneeEmail: viewer.email, ...fields });
  };
}

/**
 * Tasks a person keeps for themselves: created by `viewer` and assigned to them, so each is in
 * both branches of the board query (created by me, assigned to me). The usual board of one
 * person working alone.
 */
export function ownTasks(factory: TaskFactory, viewer: UserSeed): () => TaskSeed {
  return () => factory.task({ createdBy: viewer.id, assigneeEmail: viewer.email });
}

/** `count` other users (nobody signs in as them). */
export function otherUsers(count: number, prefix = 'other'): UserSeed[] {
  return Array.from({ length: count }, (_, i) => user(`${prefix}${i}@bench.test`, `Other User ${i}`, NO_LOGIN_HASH));
}

/** Tasks among other users only: invisible to every benchmark user. */
export function othersTasks(factory: TaskFactory, others: readonly UserSeed[]): (i: number) => TaskSeed {
  return (i) =>
    factory.task({
      createdBy: others[i % others.length]!.id,
      assigneeEmail: others[(i * 7 + 3) % others.length]!.email,
    });
}
