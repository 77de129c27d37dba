/**
 * The bare baseline: what the benchmarked calls cost with no framework at all. A plain
 * `node:http` server that does the same work as Taskwise for
 *   GET /api/tasks (+ ?status, priority, limit, cursor), GET /api/tasks/counts, POST /api/tasks,
 *   PATCH /api/tasks/:id, POST /api/users/login, GET /api/health
 * — the same session lookup (SHA-256 of the cookie token, the same SQL, the same sliding
 * refresh), the same SQL texts as the app's repositories, the same drivers with the same
 * settings (better-sqlite3 with the app's pragmas and cached statements; pg with a pool of 10
 * and named prepared statements), the same field checks (#shared/validation.ts) and argon2id
 * verification — and answers the same JSON. What it leaves out is the framework: routing,
 * schema validation and serialization, hooks, security headers, logging, Kysely.
 *
 * `node bench/baseline-server.ts` with PORT, HOST and DATABASE_URL, like the app. The API suite
 * checks that its answers equal the app's before it measures anything.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { verify } from '@node-rs/argon2';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { LIMITS, LOGIN_POLICY, PRIORITIES, SESSION_POLICY, STATUSES, type Priority, type TaskStatus } from '#shared/constants.ts';
import { normalizeEmail } from '#shared/email.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { checkDeadline, checkEmail, checkTaskTitle, checkWorkTitle } from '#shared/validation.ts';

// ---------------------------------------------------------------------------------------------
// SQL: the texts the app's repositories compile to (Kysely, PostgreSQL placeholders; SQLite
// gets `?` instead of `$n`).

const TASK_COLS = ['id', 'work_title', 'task_title', 'assignee_email', 'created_by', 'deadline', 'priority', 'status', 'created_at', 'updated_at'];
const quoted = (cols: string[], prefix = '') => cols.map((c) => `${prefix}"${c}"`).join(', ');

interface ListShape {
  status: boolean;
  priority: boolean;
  after: boolean;
  limit: boolean;
}

/** The board query (tasks-repository.ts `buildList`) and the order of its parameters. */
function listSql(shape: ListShape): { text: string; params: string[] } {
  const params: string[] = [];
  const p = (name: string) => {
    params.push(name);
    return `$${params.length}`;
  };
  const branch = (mine: boolean) => {
    const where = mine ? [`"created_by" = ${p('userId')}`] : [`"assignee_email" = ${p('email')}`, `"created_by" <> ${p('userId')}`];
    if (shape.status) where.push(`"status" = ${p('status')}`);
    if (shape.priority) where.push(`"priority" = ${p('priority')}`);
    if (shape.after) where.push(`("created_at", "id") < (${p('afterCreatedAt')}, ${p('afterId')})`);
    const order = shape.limit ? ` order by "created_at" desc, "id" desc limit ${p('limit')}` : '';
    return `select ${quoted(TASK_COLS)} from "tasks" where ${where.join(' and ')}${order}`;
  };
  const mine = branch(true);
  const assigned = branch(false);
  const text =
    `select ${quoted(TASK_COLS, '"t".')}, "u"."full_name" as "assignor", "u"."email" as "assignor_email" ` +
    `from (select * from (${mine}) as "mine" union all select * from (${assigned}) as "assigned") as "t" ` +
    `inner join "users" as "u" on "u"."id" = "t"."created_by" order by "t"."created_at" desc, "t"."id" desc` +
    (shape.limit ? ` limit ${p('limit')}` : '');
  return { text, params };
}

function countsSql(byPriority: boolean): { text: string; params: string[] } {
  const params: string[] = [];
  const p = (name: string) => {
    params.push(name);
    return `$${params.length}`;
  };
  const mine = `select "status" from "tasks" where "created_by" = ${p('userId')}${byPriority ? ` and "priority" = ${p('priority')}` : ''}`;
  const assigned = `select "status" from "tasks" where "assignee_email" = ${p('email')} and "created_by" <> ${p('userId')}${byPriority ? ` and "priority" = ${p('priority')}` : ''}`;
  return { text: `select "t"."status", cast(count(*) as integer) as "count" from (${mine} union all ${assigned}) as "t" group by "t"."status"`, params };
}

const SQL = {
  session:
    'select "s"."user_id", "s"."expires_at", "s"."last_seen_at", "u"."email", "u"."full_name" from "sessions" as "s" inner join "users" as "u" on "u"."id" = "s"."user_id" where "s"."token_hash" = $1',
  touch: 'update "sessions" set "last_seen_at" = $1, "expires_at" = $2 where "token_hash" = $3',
  deleteSession: 'delete from "sessions" where "token_hash" = $1',
  deleteExpired: 'delete from "sessions" where "user_id" = $1 and "expires_at" <= $2',
  insertSession: 'insert into "sessions" ("token_hash", "user_id", "created_at", "expires_at", "last_seen_at") values ($1, $2, $3, $4, $5)',
  userByEmail: 'select "id", "email", "full_name", "password_hash" from "users" where "email" = $1',
  failuresSince: 'select cast(count(*) as integer) as "count", min("failed_at") as "oldest" from "login_failures" where "email" = $1 and "failed_at" > $2',
  clearFailures: 'delete from "login_failures" where "email" = $1',
  insertFailure: 'insert into "login_failures" ("id", "email", "failed_at") values ($1, $2, $3)',
  takeLock: 'insert into "throttle_locks" ("key", "touched_at") values ($1, $2) on conflict ("key") do update set "touched_at" = $3',
  pruneFailures: 'delete from "login_failures" where "email" = $1 and "failed_at" <= $2',
  findVisible:
    `select ${quoted(TASK_COLS, '"t".')}, "u"."full_name" as "assignor", "u"."email" as "assignor_email" from "tasks" as "t" ` +
    'inner join "users" as "u" on "u"."id" = "t"."created_by" where "t"."id" = $1 and ("t"."created_by" = $2 or "t"."assignee_email" = $3)',
  insertTask: `insert into "tasks" (${quoted(TASK_COLS)}) values (${TASK_COLS.map((_, i) => `$${i + 1}`).join(', ')})`,
};

// ---------------------------------------------------------------------------------------------
// Database access: one small interface over both drivers.

type Row = Record<string, unknown>;

interface Db {
  /** Runs one statement and returns its rows ([] for writes). */
  query(text: string, values: unknown[]): Promise<Row[]>;
  /** Runs `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on error). */
  transaction<T>(fn: (q: Db['query']) => Promise<T>): Promise<T>;
}

function openSqlite(file: string): Db {
  const sqlite = new BetterSqlite3(file);
  // The app's pragmas (server/db/connect.ts).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const statements = new Map<string, BetterSqlite3.Statement>();
  const statement = (text: string) => {
    let s = statements.get(text);
    if (s === undefined) {
      s = sqlite.prepare(text.replaceAll(/\$\d+/g, '?'));
      statements.set(text, s);
    }
    return s;
  };
  const run = (text: string, values: unknown[]): Row[] => {
    const s = statement(text);
    if (s.reader) return s.all(...values) as Row[];
    s.run(...values);
    return [];
  };
  // One connection, as in Kysely's SQLite driver: while a transaction waits (e.g. between its
  // statements), nothing else may run on the connection, so other work queues behind it.
  let busy: Promise<void> | null = null;
  return {
    async query(text, values) {
      while (busy !== null) await busy;
      return run(text, values);
    },
    async transaction(fn) {
      // The check and the claim happen in one synchronous step after the last await.
      while (busy !== null) await busy;
      let release: (() => void) | undefined;
      busy = new Promise<void>((resolve) => {
        release = resolve;
      });
      run('begin', []);
      try {
        const result = await fn((text, values) => Promise.resolve(run(text, values)));
        run('commit', []);
        return result;
      } catch (error) {
        run('rollback', []);
        throw error;
      } finally {
        busy = null;
        release?.();
      }
    },
  };
}

function openPostgres(url: string): Db {
  // The app's pool settings and its named prepared statements (server/db/connect.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000 });
  pool.on('error', (error) => {
    console.error('pool error', error);
  });
  // As the app does on each new connection (server/db/connect.ts): SSD planner costs.
  pool.on('connect', (client) => {
    client.query('set random_page_cost = 1.1').catch((error: unknown) => {
      console.error('set random_page_cost failed', error);
    });
  });
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    if (!/^\s*(?:select|insert|update|delete|with)\b/i.test(text)) return undefined;
    let name = names.get(text);
    if (name === undefined) {
      name = `bl_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  const on = async (client: pg.Pool | pg.PoolClient, text: string, values: unknown[]) => {
    const name = nameOf(text);
    const result = name === undefined ? await client.query(text, values) : await client.query({ name, text, values });
    return result.rows as Row[];
  };
  return {
    query: (text, values) => on(pool, text, values),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn((text, values) => on(client, text, values));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const COOKIE = SESSION_POLICY.cookieName;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const cookieHeader = (token: string) => `${COOKIE}=${token}; Max-Age=${Math.floor(SESSION_POLICY.ttlMs / 1000)}; Path=/; HttpOnly; SameSite=Lax`;

function readToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === COOKIE) {
      const token = decodeURIComponent(part.slice(eq + 1).trim());
      return TOKEN_RE.test(token) ? token : undefined;
    }
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.unsupportedMediaType);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.bodyMaxBytes) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', SERVER_MESSAGES.payloadTooLarge);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'VALIDATION_FAILED', SERVER_MESSAGES.validationFailed);
  return body as Record<string, unknown>;
}

const invalid = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);
const notAuthenticated = () => new HttpError(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated);

interface User {
  id: string;
  email: string;
  fullName: string;
}

/** A query parameter, with "" meaning absent (the seed client sends `priority=` for all). */
const present = (value: string | null): string | undefined => (value === null || value === '' ? undefined : value);

function toTask(row: Row) {
  return {
    _id: row.id as string,
    workTitle: row.work_title as string,
    taskTitle: row.task_title as string,
    assignee: row.assignee_email as string,
    assignor: row.assignor as string,
    assignorEmail: row.assignor_email as string,
    deadline: row.deadline as string | null,
    priority: row.priority as Priority,
    status: row.status as TaskStatus,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function main(): void {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const url = process.env.DATABASE_URL ?? '';
  const db = url.startsWith('file:') ? openSqlite(url.slice('file:'.length)) : openPostgres(url);

  const listQueries = new Map<string, { text: string; params: string[] }>();
  const counts = [countsSql(false), countsSql(true)] as const;

  async function authenticate(req: IncomingMessage, res: ServerResponse): Promise<User> {
    const token = readToken(req);
    if (token === undefined) throw notAuthenticated();
    const tokenHash = hashToken(token);
    const [session] = await db.query(SQL.session, [tokenHash]);
    if (session === undefined) throw notAuthenticated();
    const nowMs = Date.now();
    if (Date.parse(session.expires_at as string) <= nowMs) {
      await db.query(SQL.deleteSession, [tokenHash]);
      throw notAuthenticated();
    }
    if (nowMs - Date.parse(session.last_seen_at as string) >= SESSION_POLICY.touchIntervalMs) {
      await db.query(SQL.touch, [new Date(nowMs).toISOString(), new Date(nowMs + SESSION_POLICY.ttlMs).toISOString(), tokenHash]);
      res.setHeader('set-cookie', cookieHeader(token));
    }
    return { id: session.user_id as string, email: session.email as string, fullName: session.full_name as string };
  }

  async function listTasks(req: IncomingMessage, res: ServerResponse, search: URLSearchParams): Promise<void> {
    const user = await authenticate(req, res);
    const status = search.get('status') ?? undefined;
    const priority = present(search.get('priority'));
    const limitText = search.get('limit') ?? undefined;
    const cursor = present(search.get('cursor'));
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw invalid('Status must be one of: todo, done.');
    if (priority !== undefined && !(PRIORITIES as readonly string[]).includes(priority)) throw invalid('Priority is invalid.');
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < LIMITS.pageMin || limit > LIMITS.pageMax)) throw invalid('limit is invalid.');
    let after: [string, string] | undefined;
    if (cursor !== undefined) {
      const [createdAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
      after = [createdAt, id];
    }
    const shape = { status: status !== undefined, priority: priority !== undefined, after: after !== undefined, limit: limit !== undefined };
    const key = `${+shape.status}${+shape.priority}${+shape.after}${+shape.limit}`;
    let sql = listQueries.get(key);
    if (sql === undefined) {
      sql = listSql(shape);
      listQueries.set(key, sql);
    }
    const args: Record<string, unknown> = {
      userId: user.id,
      email: user.email,
      status,
      priority,
      afterCreatedAt: after?.[0],
      afterId: after?.[1],
      limit: limit === undefined ? undefined : limit + 1,
    };
    const rows = await db.query(sql.text, sql.params.map((name) => args[name]));
    if (limit === undefined) {
      send(res, 200, { status: 'success', results: rows.length, data: { tasks: rows.map(toTask) } });
      return;
    }
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    const nextCursor =
      rows.length > limit && last !== undefined ? Buffer.from(`${last.created_at as string}|${last.id as string}`, 'utf8').toString('base64url') : null;
    send(res, 200, { status: 'success', results: page.length, data: { tasks: page.map(toTask), nextCursor } });
  }

  async function taskCounts(req: IncomingMessage, res: ServerResponse, search: URLSearchParams): Promise<void> {
    const user = await authenticate(req, res);
    const priority = present(search.get('priority'));
    const sql = priority === undefined ? counts[0] : counts[1];
    const args: Record<string, unknown> = { userId: user.id, email: user.email, priority };
    const rows = await db.query(sql.text, sql.params.map((name) => args[name]));
    const result = { todo: 0, done: 0 };
    for (const row of rows) result[row.status as TaskStatus] = Number(row.count);
    send(res, 200, { status: 'success', data: { counts: result } });
  }

  async function createTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const user = await authenticate(req, res);
    const body = await readJson(req);
    if (typeof body.taskTitle !== 'string' || typeof body.assignee !== 'string') throw invalid(SERVER_MESSAGES.validationFailed);
    const now = new Date();
    const title = checkTaskTitle(body.taskTitle);
    const assignee = checkEmail(body.assignee);
    const workTitle = checkWorkTitle(typeof body.workTitle === 'string' ? body.workTitle : null);
    const deadline = checkDeadline(typeof body.deadline === 'string' ? body.deadline : null, now);
    if (!title.ok || !assignee.ok || !workTitle.ok || !deadline.ok) throw invalid(SERVER_MESSAGES.validationFailed);
    const priority = typeof body.priority === 'string' && (PRIORITIES as readonly string[]).includes(body.priority) ? (body.priority as Priority) : 'normal';
    const nowIso = now.toISOString();
    const row: Row = {
      id: randomBytes(16).toString('base64url'),
      work_title: workTitle.value,
      task_title: title.value,
      assignee_email: assignee.value,
      created_by: user.id,
      deadline: deadline.value?.toISOString() ?? null,
      priority,
      status: 'todo',
      created_at: nowIso,
      updated_at: nowIso,
    };
    await db.query(SQL.insertTask, TASK_COLS.map((c) => row[c]));
    const task = toTask({ ...row, assignor: user.fullName, assignor_email: user.email });
    send(res, 201, { status: 'success', message: SERVER_MESSAGES.taskCreated, data: { task } });
  }

  async function updateTask(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const user = await authenticate(req, res);
    const body = await readJson(req);
    const changes: [string, unknown][] = [];
    const now = new Date();
    const task = await db.transaction(async (q) => {
      const [current] = await q(SQL.findVisible, [id, user.id, user.email]);
      if (current === undefined) throw new HttpError(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
      if (typeof body.taskTitle === 'string') {
        const title = checkTaskTitle(body.taskTitle);
        if (!title.ok) throw invalid(title.message);
        if (title.value !== current.task_title) changes.push(['task_title', title.value]);
      }
      if (typeof body.assignee === 'string') {
        const email = checkEmail(body.assignee);
        if (!email.ok) throw invalid(email.message);
        if (email.value !== current.assignee_email) changes.push(['assignee_email', email.value]);
      }
      if (typeof body.priority === 'string' && (PRIORITIES as readonly string[]).includes(body.priority) && body.priority !== current.priority) {
        changes.push(['priority', body.priority]);
      }
      if (typeof body.status === 'string' && (STATUSES as readonly string[]).includes(body.status) && body.status !== current.status) {
        changes.push(['status', body.status]);
      }
      if (changes.length === 0) return toTask(current);
      const updatedAt = now.toISOString();
      changes.push(['updated_at', updatedAt]);
      const set = changes.map(([col], i) => `"${col}" = $${i + 1}`).join(', ');
      await q(`update "tasks" set ${set} where "id" = $${changes.length + 1}`, [...changes.map(([, v]) => v), id]);
      return toTask({ ...current, ...Object.fromEntries(changes) });
    });
    send(res, 200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });
  }

  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (typeof body.email !== 'string' || typeof body.password !== 'string') throw invalid(SERVER_MESSAGES.validationFailed);
    const email = normalizeEmail(body.email);
    const now = new Date();
    const nowIso = now.toISOString();
    const windowStart = new Date(now.getTime() - LOGIN_POLICY.windowMs).toISOString();
    // As the app: under the address's lock, refuse when 10 attempts are pending or failed in
    // the window, else record this attempt as a failure before checking the password.
    const locked = await db.transaction(async (q) => {
      await q(SQL.takeLock, [`login:${email}`, nowIso, nowIso]);
      const [failures] = await q(SQL.failuresSince, [email, windowStart]);
      if (Number(failures?.count ?? 0) >= LOGIN_POLICY.maxFailuresPerEmail) return true;
      await q(SQL.insertFailure, [randomBytes(16).toString('base64url'), email, nowIso]);
      await q(SQL.pruneFailures, [email, windowStart]);
      return false;
    });
    if (locked) throw new HttpError(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyRequests);
    const [user] = await db.query(SQL.userByEmail, [email]);
    let valid = false;
    if (user !== undefined) {
      try {
        valid = await verify(user.password_hash as string, body.password);
      } catch {
        valid = false;
      }
    }
    if (!valid || user === undefined) throw new HttpError(401, 'INVALID_CREDENTIALS', SERVER_MESSAGES.incorrectCredentials);
    const token = randomBytes(32).toString('base64url');
    const previous = readToken(req);
    const userId = user.id as string;
    await db.transaction(async (q) => {
      await q(SQL.clearFailures, [email]);
      if (previous !== undefined) await q(SQL.deleteSession, [hashToken(previous)]);
      await q(SQL.deleteExpired, [userId, nowIso]);
      await q(SQL.insertSession, [hashToken(token), userId, nowIso, new Date(now.getTime() + SESSION_POLICY.ttlMs).toISOString(), nowIso]);
    });
    send(
      res,
      200,
      { status: 'success', message: SERVER_MESSAGES.loginSuccess, data: { user: { fullName: user.full_name as string, email: user.email as string } } },
      { 'set-cookie': cookieHeader(token) },
    );
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const search = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
    const method = req.method ?? 'GET';
    if (path === '/api/tasks' && method === 'GET') return listTasks(req, res, search);
    if (path === '/api/tasks' && method === 'POST') return createTask(req, res);
    if (path === '/api/tasks/counts' && method === 'GET') return taskCounts(req, res, search);
    if (path.startsWith('/api/tasks/') && method === 'PATCH') return updateTask(req, res, decodeURIComponent(path.slice('/api/tasks/'.length)));
    if (path === '/api/users/login' && method === 'POST') return login(req, res);
    if (path === '/api/health' && method === 'GET') {
      await db.query('select 1', []);
      send(res, 200, { status: 'success', data: { database: 'ok' } });
      return;
    }
    throw new HttpError(404, 'NOT_FOUND', SERVER_MESSAGES.routeNotFound);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        send(res, error.status, { status: 'fail', code: error.code, message: error.message });
        return;
      }
      console.error(error);
      send(res, 500, { status: 'error', code: 'INTERNAL_ERROR', message: SERVER_MESSAGES.internalError });
    });
  });
  // Node's defaults, as Fastify keeps them (keep-alive, no request timeout beyond the default).
  server.listen(port, host);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
