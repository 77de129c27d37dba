/**
 * Direct access to the test server's SQLite file, for what the UI cannot or should not do in
 * every test: create signed-up users without walking the e-mail flow (the server caps one-time
 * codes per IP), and insert tasks the API refuses (deadlines in the past). Column names follow
 * server/db/migrations/; values are written in the shapes the server itself writes.
 */
import { hash } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { Priority, TaskStatus } from '../../shared/constants.ts';
import { keyBetween } from '../../server/services/order-keys.ts';

export interface TestUser {
  email: string;
  fullName: string;
  password: string;
}

export interface SeedTask {
  taskTitle: string;
  assignee: string;
  workTitle?: string;
  deadline?: Date | null;
  priority?: Priority;
  status?: TaskStatus;
  createdAt?: Date;
}

type Db = DatabaseSync;

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

const columnCache = new Map<string, Column[]>();

function columns(db: Db, table: string): Column[] {
  let cols = columnCache.get(table);
  if (!cols) {
    cols = db.prepare(`PRAGMA table_info(${table})`).all() as unknown as Column[];
    if (cols.length === 0) throw new Error(`Table ${table} does not exist in the test database`);
    columnCache.set(table, cols);
  }
  return cols;
}

/** A timestamp in the column's own representation (integer milliseconds or ISO text). */
function timeValue(col: Column | undefined, date: Date): number | string {
  return col && /INT/i.test(col.type) ? date.getTime() : date.toISOString();
}

/** Inserts `values` (keyed by column) and fills the id if the table needs one given. */
function insert(db: Db, table: string, values: Record<string, SQLInputValue>): string {
  const cols = columns(db, table);
  const idCol = cols.find((c) => c.pk === 1);
  const row: Record<string, SQLInputValue> = {};
  for (const col of cols) {
    const value = values[col.name];
    if (value !== undefined) row[col.name] = value;
  }
  if (idCol && !(idCol.name in row) && !/INT/i.test(idCol.type)) row[idCol.name] = randomBytes(16).toString('base64url');
  const id = idCol ? row[idCol.name] : undefined;
  const names = Object.keys(row);
  const info = db
    .prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`)
    .run(row);
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : String(info.lastInsertRowid);
}

export function openDb(path: string): Db {
  return new DatabaseSync(path, { timeout: 10_000 });
}

/**
 * Empties the per-address sign-in budget (100 per 15 minutes, LOGIN_POLICY). Every browser test
 * signs in from 127.0.0.1 against one server, so the whole run would exhaust it: the fast sign-in
 * of the fixtures (a shortcut, not what a test checks) starts from a fresh one. Per-account
 * failure counts are not touched.
 */
export function clearSignInBudget(db: Db): void {
  db.prepare("delete from rate_limit_hits where key like 'login-ip:%'").run();
}

export function randomSuffix(): string {
  return randomBytes(5).toString('hex');
}

/** One password per test process, so its argon2id hash is computed once (see insertUser). */
const sharedPassword = `correct-horse-${randomSuffix()}`;

/** A unique user that exists nowhere yet. */
export function newUserData(overrides: Partial<TestUser> = {}): TestUser {
  const id = randomSuffix();
  return {
    email: `user-${id}@example.test`,
    fullName: `Tess Tester ${id}`,
    password: sharedPassword,
    ...overrides,
  };
}

const hashes = new Map<string, Promise<string>>();

/** argon2id with the library defaults, as server/services/passwords.ts hashes; cached per password. */
function passwordHash(password: string): Promise<string> {
  let cached = hashes.get(password);
  if (!cached) {
    cached = hash(password);
    hashes.set(password, cached);
  }
  return cached;
}

/**
 * Writes a signed-up user straight into the database (argon2id, as the server hashes), with
 * what every account has from the start: its personal board (whose id is the user's) and its
 * admin membership there.
 */
export async function insertUser(db: Db, user: TestUser): Promise<string> {
  const cols = columns(db, 'users');
  const col = (name: string) => cols.find((c) => c.name === name);
  const now = new Date();
  const email = user.email.toLowerCase();
  const id = insert(db, 'users', {
    email,
    full_name: user.fullName,
    password_hash: await passwordHash(user.password),
    created_at: timeValue(col('created_at'), now),
    updated_at: timeValue(col('updated_at'), now),
  });
  const at = now.toISOString();
  insert(db, 'boards', { id, name: 'Personal', description: '', personal: 1, created_at: at, updated_at: at });
  insert(db, 'board_members', { board_id: id, email, user_id: id, role: 'admin', added_at: at, added_by_name: user.fullName, added_by_email: email });
  return id;
}

export function userId(db: Db, email: string): string {
  const row = db.prepare('SELECT id FROM users WHERE email = ?').get(email.toLowerCase()) as { id: string | number } | undefined;
  if (!row) throw new Error(`No user ${email}`);
  return String(row.id);
}

/** Inserts a task created by `creatorEmail`, bypassing the API's rules (e.g. a past deadline). */
export function insertTask(db: Db, creatorEmail: string, task: SeedTask): string {
  const cols = columns(db, 'tasks');
  const col = (name: string) => cols.find((c) => c.name === name);
  const created = task.createdAt ?? new Date();
  const values: Record<string, SQLInputValue> = {
    work_title: task.workTitle ?? '',
    task_title: task.taskTitle,
    assignee_email: task.assignee.toLowerCase(),
    created_by: userId(db, creatorEmail),
    deadline: task.deadline ? timeValue(col('deadline'), task.deadline) : null,
    priority: task.priority ?? 'normal',
    status: task.status ?? 'todo',
    created_at: timeValue(col('created_at'), created),
    updated_at: timeValue(col('updated_at'), created),
  };
  if (col('version')) values.version = 1;
  // On its creator's personal board (whose id is the creator's).
  if (col('board_id')) values.board_id = userId(db, creatorEmail);
  // At the top of the board's first column of its status, as the server places a new task.
  if (col('column_id')) {
    const column = db
      .prepare('select id from board_columns where board_id = ? and category = ? order by position, id limit 1')
      .get(values.board_id ?? null, values.status ?? null) as { id: string } | undefined;
    if (column === undefined) throw new Error(`No ${task.status ?? "todo"} column on the board of ${creatorEmail}`);
    const top = db.prepare('select min(position) as position from tasks where column_id = ?').get(column.id) as { position: string | null };
    values.column_id = column.id;
    values.position = keyBetween(null, top.position);
  }
  const id = insert(db, 'tasks', values);
  // created_by may be an integer column; userId() returns text, SQLite's affinity converts it.
  return id;
}

/** Makes the account an instance admin, as `npm run admin -- users:promote` does. */
export function promoteUser(db: Db, email: string): void {
  db.prepare('update users set admin_since = ? where email = ?').run(new Date().toISOString(), email.toLowerCase());
}
