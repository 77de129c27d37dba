/**
 * The bare baseline: the leanest correct server a careful engineer would write by hand for the
 * calls the API benchmark measures — GET /api/health, GET /api/users/me, GET /api/tasks (with
 * ?status and ?priority), POST /api/tasks, PATCH /api/tasks/:id, POST /api/users/login — and
 * the same answers (JSend bodies, status codes, cookies, security headers) as Taskwise. For the
 * uploads benchmark it also takes POST /api/tasks/:id/attachments, with less than the app does
 * (see `upload`): the bare reference for what uploads do to the reads beside them.
 *
 * Plain `node:http`, `node:sqlite` (or `pg` for PostgreSQL), `JSON.stringify` (and @fastify/busboy
 * for the one multipart body), and its own SQL, chosen for speed: one prepared statement per call,
 * no query builder, no framework, no request log. It shares with the app only what defines the
 * answers (field rules, message texts, limits from shared/, the security header values), never
 * the app's SQL or repositories.
 *
 * Sessions as the app's contract says: the cookie carries a random token, the database its
 * SHA-256; 30 days, sliding, the expiry refreshed at most once a minute.
 *
 * Writes store what the app stores for the calls measured, with the same durability (SQLite:
 * WAL, synchronous = full; PostgreSQL: its defaults, synchronous commit), all in one
 * transaction: the task row (its search index and list indexes are the database's own: SQLite
 * triggers, PostgreSQL indexes), its activity entries, its event (`task.created` /
 * `task.updated`, the task JSON as payload) appended under the same ordering rule (PostgreSQL:
 * the event-order advisory lock held to the commit, then a NOTIFY), and for a task assigned to
 * someone else the assignment mail in the outbox (under the sender's hourly cap of 100, counted
 * under the sender's lock through the schema's `mail_quota_used` on PostgreSQL) and the
 * assignee's `assigned` notification with its `notification.created` event. PostgreSQL writes a
 * create as ONE statement of data-modifying CTEs, a change as a read and ONE statement at the
 * version read. What it does not do (the measured calls never need it): labels, checklists,
 * repeats, moves, webhooks (no board of the benchmark has one), push rows (nobody subscribed),
 * the mail of a reassignment, the `completed` notification, the hourly trim of each person's
 * notifications to 1,000 (the app's sweep, not its writes), mail templates (its mail is a short
 * fixed text), the request log.
 *
 * `node bench/baseline-server.ts` with PORT, HOST and DATABASE_URL, on a database the app has
 * migrated. The API suite checks that its answers equal the app's before it measures anything.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';
import { verify } from '@node-rs/argon2';
import pg from 'pg';
import { LIMITS, LOGIN_POLICY, PRIORITIES, SESSION_POLICY, STATUSES } from '#shared/constants.ts';
import { normalizeEmail } from '#shared/email.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { checkDeadline, checkEmail, checkTaskTitle, checkWorkTitle } from '#shared/validation.ts';
import { securityHeaders } from '../server/plugins/security.ts';

const TOUCH_EVERY_MS = 60_000;
const TTL_MS = SESSION_POLICY.ttlMs;
const COOKIE = SESSION_POLICY.cookieName;

type Row = Record<string, unknown>;
/** `$1`-numbered SQL; SQLite gets `?1` (the same numbering). */
type Sql = string;

/** Runs statements by name. Writes that must be atomic go through `tx`. */
interface Db {
  all(name: string, values: unknown[]): Promise<Row[]>;
  tx<T>(fn: (all: (name: string, values: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T>;
}

// ---------------------------------------------------------------------------------------------
// Task JSON: the columns the API shows, under their API names. `description` and `version` are
// columns the app may have (added by later migrations); they are shown when present, so the
// baseline keeps answering like the app. Internal columns (creator id, schedules) are not read.

const API_NAMES: Record<string, string> = {
  id: '_id',
  work_title: 'workTitle',
  task_title: 'taskTitle',
  description: 'description',
  assignee_email: 'assignee',
  deadline: 'deadline',
  start_at: 'startAt',
  priority: 'priority',
  status: 'status',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  version: 'version',
  board_id: 'boardId',
  column_id: 'columnId',
  position: 'position',
  attachment_count: 'attachmentCount',
  cover_id: 'cover',
  cover_width: '',
  cover_height: '',
};

/** `cover` from the row's three cover columns (its id, width and height), as the app shows it. */
const coverOf = (id: unknown, width: unknown, height: unknown) =>
  id === null ? null : { attachmentId: id, thumbnailUrl: `/api/attachments/${encodeURIComponent(id as string)}/thumbnail`, width, height };

/**
 * Task details (labels, checklist counts, repeat), when the tasks table has them: the counts and
 * the repeat are columns; the labels are read as the app reads them, the ids with the task
 * (`labelIdsSql`: the `label_ids` column where the schema has it, triggers keeping it, else read
 * from task_labels) and the labels of a whole answer in one more query, only when it has any.
 */
const DETAIL_COLUMNS = ['checklist_done', 'checklist_total', 'repeat_every', 'repeat_unit'];
interface Details {
  labelIdsSql: string;
  labelsByIdsSql: string;
}
const withDetails = (task: Row, done: unknown, total: unknown, every: unknown, unit: unknown): Row => {
  task.checklist = { done, total };
  task.repeat = every === null || every === undefined ? null : { every, unit };
  task.labels = [];
  return task;
};

function taskMapper(columns: readonly string[], details: boolean): (row: Row, assignor: string, assignorEmail: string) => Row {
  const fields = columns.filter((c) => API_NAMES[c] !== '' && c !== 'cover_id').map((c) => [c, API_NAMES[c]!] as const);
  const cover = columns.includes('cover_id');
  return (row, assignor, assignorEmail) => {
    const task: Row = { assignor, assignorEmail };
    for (const [column, key] of fields) task[key] = row[column];
    if (cover) task.cover = coverOf(row.cover_id, row.cover_width, row.cover_height);
    return details ? withDetails(task, row.checklist_done, row.checklist_total, row.repeat_every, row.repeat_unit) : task;
  };
}

/**
 * The board's rows come back as arrays (node:sqlite's `setReturnArrays`, pg's `rowMode:
 * 'array'`): the task columns in order, then the creator's name and e-mail. Reading a null-
 * prototype row object field by field costs more than the query on a big board.
 */
const ARRAY_ROWS = new Set(['board', 'boardStatus', 'boardPriority', 'boardBoth']);
/** Statements in PostgreSQL's SQL only (SQLite writes the same rows one statement at a time). */
const POSTGRES_ONLY = new Set(['createPg', 'createPgMail', 'updatePg']);

function boardRowMapper(columns: readonly string[], details: boolean): (row: Row) => Row {
  const fields = columns.map((c, i) => [i, API_NAMES[c]!, c] as const).filter(([, key, c]) => key !== '' && c !== 'cover_id');
  const [coverAt, widthAt, heightAt] = ['cover_id', 'cover_width', 'cover_height'].map((c) => columns.indexOf(c)) as [number, number, number];
  const assignorAt = columns.length;
  return (row) => {
    const values = row as unknown as unknown[];
    const task: Row = { assignor: values[assignorAt], assignorEmail: values[assignorAt + 1] };
    for (const [i, key] of fields) task[key] = values[i];
    if (coverAt >= 0) task.cover = coverOf(values[coverAt], values[widthAt], values[heightAt]);
    return details ? withDetails(task, values[assignorAt + 2], values[assignorAt + 3], values[assignorAt + 4], values[assignorAt + 5]) : task;
  };
}

/** The label ids each row carries (the last value of a board row, `label_ids` of a row object). */
const labelIdsOf = (row: Row): unknown => (Array.isArray(row) ? (row as unknown[]).at(-1) : row.label_ids);

// ---------------------------------------------------------------------------------------------
// SQL

const OUTBOX_INSERT =
  'insert into outbox (id, kind, to_email, subject, text_body, html_body, headers, dedupe_key, status, attempts, run_at, locked_by, locked_until, last_error, created_at, sent_at, caused_by)';
const NOTICE_INSERT = 'insert into notifications (id, user_id, type, text, task_id, task_title, board_id, board_name, by_name, by_email, created_at, read_at)';
/**
 * PostgreSQL's event log: ids drawn under one advisory lock per schema, held to the commit, so
 * commit order is id order (what a resuming reader relies on). The NOTIFY goes to a channel of
 * its own, so the Taskwise server sharing the database is not woken by the baseline's writes.
 */
const EVENT_LOCK = "pg_advisory_xact_lock(hashtext('taskwise.events.' || current_schema()))";
const EVENT_CHANNEL = "'baseline_events_' || md5(current_schema())";

/**
 * A new task's place, as the product gives it: the first `todo` column of its board, read by
 * the insert; a valid order key unique by its id ('Zz', the id's characters as base-62 digits,
 * a final '1'), below the product's keys, which a bench round does not move.
 */
const FIRST_TODO_COLUMN = "(select c.id from board_columns c where c.board_id = $5 and c.category = 'todo' order by c.position limit 1)";
const TOP_POSITION = "'Zz' || replace(replace($1, '-', 'A'), '_', 'B') || '1'";

/**
 * A create as ONE PostgreSQL statement: the task, its `created` activity entry, (`mail`) the
 * assignment mail under the sender's hourly cap, the assignee's notification (an account other
 * than the creator's, not muted), then under the event-order lock the `task.created` and
 * `notification.created` events, and the NOTIFY. $1–$8: the task; $9 activity id; $10, $11 the
 * actor's name and e-mail; $12 the event's JSON; $13 its audience; $14 the notification's id;
 * $15 its text; $16–$20 (mail) id, cap window start, subject, text, html.
 */
function createStatement(returning: string, mail: boolean): string {
  const ctes = [
    `task as (insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at, board_id, column_id, position) ` +
      `values ($1, $2, $3, $4, $5, $6, $7, 'todo', $8, $8, $5, ${FIRST_TODO_COLUMN}, ${TOP_POSITION}) returning ${returning})`,
    `activity as (insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes) select $9, id, 'created', $5, $10, $11, $8, null from task returning 1)`,
    ...(mail
      ? [
          'quota as (select mail_quota_used($5, $17) as used from task)',
          `mail as (${OUTBOX_INSERT} select $16, 'assigned', $4, $18, $19, $20, '{}', null, 'pending', 0, $8, null, null, null, $8, null, $5 from quota ` +
            'where quota.used < 100 and coalesce((select s.notify_assigned from mail_settings s where s.email = $4), 1) = 1 returning 1)',
        ]
      : []),
    `notice as (${NOTICE_INSERT} select $14, u.id, 'assigned', $15, task.id, task.task_title, task.board_id, b.name, $10, $11, $8, null ` +
      'from task join users u on u.email = task.assignee_email join boards b on b.id = task.board_id where u.id <> $5 ' +
      "and not exists (select 1 from notification_mutes m where m.user_id = u.id and m.type = 'assigned' and m.channel = 'app') returning id, user_id, board_name)",
    `ordered as (select ${EVENT_LOCK} from task where (select count(*) from activity) >= 0 and (select count(*) from notice) >= 0${mail ? ' and (select count(*) from mail) >= 0' : ''})`,
    'event as (insert into events (type, subject_id, board_id, audience, from_board_id, from_audience, payload, created_at) ' +
      "select 'task.created', $1, $5, $13, null, null, $12, $8 from ordered " +
      "union all select 'notification.created', n.id, null, json_build_array(lower($4))::text, null, null, " +
      "json_build_object('notification', json_build_object('_id', n.id, 'type', 'assigned', 'text', $15, 'task', json_build_object('_id', $1, 'taskTitle', $3), " +
      "'board', json_build_object('_id', $5, 'name', n.board_name), 'by', json_build_object('fullName', $10, 'email', $11), 'at', $8, 'readAt', null), " +
      "'unreadCount', (select count(*) from notifications o where o.user_id = n.user_id and o.read_at is null) + 1)::text, $8 from ordered, notice n returning id)",
    `notified as (select pg_notify(${EVENT_CHANNEL}, max(id)::text) from event having count(*) > 0)`,
  ];
  return `with ${ctes.join(',\n')}\nselect ${returning}, ${mail ? '(select count(*) from mail)' : '1'} as mailed, (select count(*) from notified) as notified from task`;
}

function statements(taskColumns: readonly string[], hasVersion: boolean, details: Details | undefined): Record<string, Sql> {
  const cols = taskColumns.map((c) => `t.${c}`).join(', ');
  const extra = details === undefined ? '' : `, ${DETAIL_COLUMNS.map((c) => `t.${c}`).join(', ')}, ${details.labelIdsSql} as label_ids`;
  const returning = taskColumns.join(', ') + (details === undefined ? '' : `, ${DETAIL_COLUMNS.join(', ')}`);
  // With boards (a `board_id` column), a user sees the tasks of the boards they are an active
  // member of and those assigned to them; before, those they created or were assigned. A list
  // reads the two index ranges apart and merges them (an OR of them scans the table on
  // PostgreSQL); one task, found by its id, is tested with the OR.
  const boards = taskColumns.includes('board_id');
  const myBoards = (me: string) => `select board_id from board_members where user_id = ${me}`;
  const visible = (me: string, email: string) =>
    boards ? `(t.board_id in (${myBoards(me)}) or t.assignee_email = ${email})` : `(t.created_by = ${me} or t.assignee_email = ${email})`;
  const board = (filter: string) =>
    boards
      ? `select ${cols}, u.full_name as assignor, u.email as assignor_email${extra} from ` +
        `(select * from tasks where board_id in (${myBoards('$1')}) union all select * from tasks where assignee_email = $2 and board_id not in (${myBoards('$1')})) t ` +
        `join users u on u.id = t.created_by where true${filter} order by t.created_at desc, t.id desc limit 5000`
      : `select ${cols}, u.full_name as assignor, u.email as assignor_email${extra} from tasks t join users u on u.id = t.created_by ` +
        `where ${visible('$1', '$2')}${filter} order by t.created_at desc, t.id desc limit 5000`;
  return {
    session: 'select s.user_id, s.expires_at, s.last_seen_at, u.email, u.full_name from sessions s join users u on u.id = s.user_id where s.token_hash = $1',
    touch: 'update sessions set last_seen_at = $2, expires_at = $3 where token_hash = $1',
    dropSession: 'delete from sessions where token_hash = $1',
    board: board(''),
    boardStatus: board(' and t.status = $3'),
    boardPriority: board(' and t.priority = $3'),
    boardBoth: board(' and t.status = $3 and t.priority = $4'),
    // On boards, a new task goes on its creator's personal board, whose id is the creator's id.
    insertTask:
      `insert into tasks (id, work_title, task_title, assignee_email, created_by, deadline, priority, status, created_at, updated_at${boards ? ', board_id, column_id, position' : ''}) ` +
      `values ($1, $2, $3, $4, $5, $6, $7, 'todo', $8, $8${boards ? `, $5, ${FIRST_TODO_COLUMN}, ${TOP_POSITION}` : ''}) returning ${returning}`,
    visibleTask: `select ${cols}, u.full_name as assignor, u.email as assignor_email${extra} from tasks t join users u on u.id = t.created_by where t.id = $1 and ${visible('$2', '$3')}`,
    updateTask:
      'update tasks set work_title = $2, task_title = $3, assignee_email = $4, deadline = $5, priority = $6, status = $7, updated_at = $8' +
      // A status change moves the task to the top of its board's first column of that category, as the product does.
      (boards
        ? ', column_id = case when status = $7 then column_id else (select c.id from board_columns c where c.board_id = tasks.board_id and c.category = $7 order by c.position limit 1) end' +
          `, position = case when status = $7 then position else ${TOP_POSITION.replaceAll('$1', 'id')} end`
        : '') +
      `${hasVersion ? ', version = version + 1' : ''} where id = $1 returning ${returning}`,
    // The rows a write stores besides the task (SQLite: one statement each, in the write's transaction).
    insertActivity: 'insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes) values ($1, $2, $3, $4, $5, $6, $7, $8)',
    insertEvent: 'insert into events (type, subject_id, board_id, audience, from_board_id, from_audience, payload, created_at) values ($1, $2, $3, $4, null, null, $5, $6)',
    mailsUsed: 'select count(*) as n from outbox where caused_by = $1 and created_at > $2',
    mailWanted: 'select coalesce((select notify_assigned from mail_settings where email = $1), 1) as wanted',
    insertMail: `${OUTBOX_INSERT} values ($1, 'assigned', $2, $3, $4, $5, $6, null, 'pending', 0, $7, null, null, null, $7, null, $8)`,
    noticeTarget:
      "select u.id, b.name as board_name from users u join boards b on b.id = $2 where u.email = $1 and u.id <> $3 " +
      "and not exists (select 1 from notification_mutes m where m.user_id = u.id and m.type = 'assigned' and m.channel = 'app')",
    insertNotice: `${NOTICE_INSERT} values ($1, $2, 'assigned', $3, $4, $5, $6, $7, $8, $9, $10, null)`,
    unread: 'select count(*) as n from notifications where user_id = $1 and read_at is null',
    // PostgreSQL: a create, and a change at the version read, as ONE statement each.
    createPg: createStatement(returning, false),
    createPgMail: createStatement(returning, true),
    updatePg: `with task as (update tasks set work_title = $2, task_title = $3, assignee_email = $4, deadline = $5, priority = $6, status = $7, updated_at = $8, ` +
      `version = version + 1 where id = $1 and version = $9 returning ${returning}), ` +
      `activity as (insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes) ` +
      `select a.id, task.id, a.type, $10, $11, $12, $8, a.changes from task, json_to_recordset($13::json) as a(id text, type text, changes text) returning 1), ` +
      `ordered as (select ${EVENT_LOCK} from task where (select count(*) from activity) >= 0), ` +
      `event as (insert into events (type, subject_id, board_id, audience, from_board_id, from_audience, payload, created_at) ` +
      `select 'task.updated', $1, $14, $15, null, null, $16, $8 from ordered returning id), ` +
      `notified as (select pg_notify(${EVENT_CHANNEL}, max(id)::text) from event having count(*) > 0) ` +
      `select ${returning}, (select count(*) from notified) as notified from task`,
    ...(details === undefined ? {} : { labelsByIds: details.labelsByIdsSql }),
    userByEmail: 'select id, email, full_name, password_hash from users where email = $1',
    failures: 'select count(*) as n from login_failures where email = $1 and failed_at > $2',
    addFailure: 'insert into login_failures (id, email, failed_at) values ($1, $2, $3)',
    clearFailures: 'delete from login_failures where email = $1',
    dropExpired: 'delete from sessions where user_id = $1 and expires_at <= $2',
    addSession: 'insert into sessions (token_hash, user_id, created_at, expires_at, last_seen_at) values ($1, $2, $3, $4, $3)',
    ping: 'select 1',
    // An upload's row, once its file is whole, and the task's count of files.
    insertAttachment:
      'insert into attachments (id, task_id, name, size, type, width, height, storage_key, thumbnail_key, uploader_id, uploader_name, uploader_email, created_at) ' +
      "values ($1, $2, $3, $4, 'application/octet-stream', null, null, $1, null, $5, $6, $7, $8)",
    countAttachment: 'update tasks set attachment_count = attachment_count + 1 where id = $1',
  };
}

// ---------------------------------------------------------------------------------------------
// Databases

function openSqlite(file: string): { db: Db; columns: string[]; details: boolean } {
  const sqlite = new DatabaseSync(file);
  sqlite.exec('pragma journal_mode = wal; pragma synchronous = full; pragma foreign_keys = on; pragma busy_timeout = 5000');
  const all_ = (sqlite.prepare('select name from pragma_table_info(?1)').all('tasks') as { name: string }[]).map((r) => r.name);
  const columns = all_.filter((c) => c in API_NAMES);
  const details: Details | undefined = all_.includes('checklist_done')
    ? {
        labelIdsSql: all_.includes('label_ids') ? 't.label_ids' : '(select group_concat(tl.label_id) from task_labels tl where tl.task_id = t.id)',
        labelsByIdsSql: 'select id, name, name_key, color from labels where id in (select value from json_each($1))',
      }
    : undefined;
  const prepared = new Map<string, StatementSync>();
  for (const [name, text] of Object.entries(statements(columns, columns.includes('version'), details))) {
    if (POSTGRES_ONLY.has(name)) continue;
    const statement = sqlite.prepare(text.replaceAll(/\$(\d+)/g, '?$1'));
    if (ARRAY_ROWS.has(name)) statement.setReturnArrays(true);
    prepared.set(name, statement);
  }
  const all = (name: string, values: unknown[]) => prepared.get(name)!.all(...(values as SQLInputValue[])) as Row[];
  // One connection. Its statements are synchronous, but a transaction's body awaits between
  // them (microtasks only), where another request's could start: transactions queue up one at
  // a time, as Kysely's single SQLite connection does for the app. A read of another request in
  // between runs inside the open transaction, which is harmless on one connection.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    columns,
    details: details !== undefined,
    db: {
      all: (name, values) => Promise.resolve(all(name, values)),
      tx<T>(fn: (all: (name: string, values: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T> {
        const run = queue.then(async () => {
          sqlite.exec('begin immediate');
          try {
            const result = await fn((name, values) => Promise.resolve(all(name, values)));
            sqlite.exec('commit');
            return result;
          } catch (error) {
            if (sqlite.isTransaction) sqlite.exec('rollback');
            throw error;
          }
        });
        queue = run.catch(() => undefined);
        return run;
      },
    },
  };
}

async function openPostgres(url: string): Promise<{ db: Db; columns: string[]; details: boolean }> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  const { rows } = await pool.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'tasks' order by ordinal_position",
  );
  const columns = rows.map((r) => r.column_name).filter((c) => c in API_NAMES);
  const details: Details | undefined = rows.some((r) => r.column_name === 'checklist_done')
    ? {
        labelIdsSql: rows.some((r) => r.column_name === 'label_ids') ? 't.label_ids' : "(select string_agg(tl.label_id, ',') from task_labels tl where tl.task_id = t.id)",
        labelsByIdsSql: 'select id, name, name_key, color from labels where id in (select jsonb_array_elements_text($1::jsonb))',
      }
    : undefined;
  const texts = statements(columns, columns.includes('version'), details);
  // Named statements: parsed and planned once per connection.
  const run = async (client: pg.Pool | pg.PoolClient, name: string, values: unknown[]) => (await client.query({ name, text: texts[name]!, values, ...(ARRAY_ROWS.has(name) ? { rowMode: 'array' as const } : {}) })).rows as Row[];
  return {
    columns,
    details: details !== undefined,
    db: {
      all: (name, values) => run(pool, name, values),
      async tx(fn) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const result = await fn((name, values) => run(client, name, values));
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback');
          throw error;
        } finally {
          client.release();
        }
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

class Fail extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const invalid = () => new Fail(400, 'VALIDATION_FAILED', SERVER_MESSAGES.validationFailed);
const unauthenticated = () => new Fail(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated);

const HEADERS = securityHeaders({ httpsOrigin: false });
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const sessionCookie = (token: string) => `${COOKIE}=${token}; Max-Age=${TTL_MS / 1000}; Path=/; HttpOnly; SameSite=Lax`;
const CLEAR_COOKIE = `${COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function cookieToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  const at = header.indexOf(`${COOKIE}=`);
  if (at === -1 || (at > 0 && header[at - 1] !== ' ' && header[at - 1] !== ';')) return undefined;
  const end = header.indexOf(';', at);
  const token = header.slice(at + COOKIE.length + 1, end === -1 ? undefined : end);
  return TOKEN_RE.test(token) ? token : undefined;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new Fail(415, 'UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.unsupportedMediaType);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.bodyMaxBytes) throw new Fail(413, 'PAYLOAD_TOO_LARGE', SERVER_MESSAGES.payloadTooLarge);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Fail(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid();
  return body as Record<string, unknown>;
}

const str = (value: unknown): value is string => typeof value === 'string';
const newId = () => randomBytes(16).toString('base64url');
/** Mail a person causes to others: at most this many per rolling hour. */
const MAIL_CAP = 100;
const MAIL_WINDOW_MS = 3_600_000;
/** The columns a change's activity entry tracks, and their names there. */
const TRACKED = [['task_title', 'taskTitle'], ['assignee_email', 'assignee'], ['work_title', 'workTitle'], ['deadline', 'deadline'], ['priority', 'priority'], ['status', 'status']] as const;
type All = (name: string, values: unknown[]) => Promise<Row[]>;
const oneOf = (list: readonly string[], value: unknown): value is string => typeof value === 'string' && list.includes(value);
/** Where uploads go (`upload`), and the largest one taken. */
const FILES_DIR = process.env.FILES_DIR ?? 'data/files';
const MAX_UPLOAD_BYTES = Number(process.env.ATTACHMENT_MAX_MB ?? '100') * 1_000_000;
/** A parser of a multipart body of one file (400 when the body is not multipart). */
function multipartOf(req: IncomingMessage) {
  try {
    return new Busboy({ headers: req.headers as BusboyHeaders, limits: { files: 1, fileSize: MAX_UPLOAD_BYTES } });
  } catch {
    throw invalid();
  }
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? '';
  const postgres = !url.startsWith('file:');
  const { db, columns, details } = postgres ? await openPostgres(url) : openSqlite(url.slice('file:'.length));
  const toTask = taskMapper(columns, details);
  const toBoardTask = boardRowMapper(columns, details);
  /** Fills `tasks[i].labels` from `ids[i]` (comma-separated label ids, or null): one query, none when no task has labels. */
  async function labelled(tasks: Row[], ids: unknown[]): Promise<Row[]> {
    const wanted = new Set<string>();
    for (const list of ids) if (typeof list === 'string') for (const id of list.split(',')) wanted.add(id);
    if (wanted.size === 0) return tasks;
    const found = new Map((await db.all('labelsByIds', [JSON.stringify([...wanted])])).map((l) => [l.id as string, l]));
    tasks.forEach((task, i) => {
      const list = ids[i];
      if (typeof list !== 'string') return;
      const labels = list.split(',').flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
      labels.sort((a, b) => ((a.name_key as string) < (b.name_key as string) ? -1 : 1));
      task.labels = labels.map((l) => ({ _id: l.id, name: l.name, color: l.color }));
    });
    return tasks;
  }
  const attempts = new Map<string, number[]>();

  interface User {
    id: string;
    email: string;
    fullName: string;
  }

  async function signedIn(req: IncomingMessage, res: ServerResponse): Promise<User> {
    const token = cookieToken(req);
    if (token === undefined) throw unauthenticated();
    const hash = sha256(token);
    const [s] = await db.all('session', [hash]);
    if (s === undefined) {
      res.setHeader('set-cookie', CLEAR_COOKIE);
      throw unauthenticated();
    }
    const now = Date.now();
    if (Date.parse(s.expires_at as string) <= now) {
      await db.all('dropSession', [hash]);
      res.setHeader('set-cookie', CLEAR_COOKIE);
      throw unauthenticated();
    }
    if (now - Date.parse(s.last_seen_at as string) >= TOUCH_EVERY_MS) {
      await db.all('touch', [hash, new Date(now).toISOString(), new Date(now + TTL_MS).toISOString()]);
      res.setHeader('set-cookie', sessionCookie(token));
    }
    return { id: s.user_id as string, email: s.email as string, fullName: s.full_name as string };
  }

  async function board(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const user = await signedIn(req, res);
    const status = query.get('status') ?? '';
    const priority = query.get('priority') ?? '';
    if ((status !== '' && !oneOf(STATUSES, status)) || (priority !== '' && !oneOf(PRIORITIES, priority)) || query.has('limit') || query.has('cursor')) {
      throw invalid();
    }
    const rows =
      status === ''
        ? priority === ''
          ? await db.all('board', [user.id, user.email])
          : await db.all('boardPriority', [user.id, user.email, priority])
        : priority === ''
          ? await db.all('boardStatus', [user.id, user.email, status])
          : await db.all('boardBoth', [user.id, user.email, status, priority]);
    // At most 5,000 tasks, as Taskwise answers without `limit`; the bench's boards hold fewer, so
    // there is never a next page.
    const tasks = details ? await labelled(rows.map(toBoardTask), rows.map(labelIdsOf)) : rows.map(toBoardTask);
    send(res, 200, { status: 'success', results: rows.length, data: { tasks, nextCursor: null } });
  }

  /** SQLite: the notification of a new task's assignee, and its event (the caller's transaction). */
  async function noticeSqlite(all: All, task: Row, user: User, at: string): Promise<void> {
    const [target] = await all('noticeTarget', [task.assignee, task.boardId, user.id]);
    if (target === undefined) return;
    const noticeId = newId();
    const text = `${user.fullName} assigned you ${task.taskTitle as string}`;
    await all('insertNotice', [noticeId, target.id, text, task._id, task.taskTitle, task.boardId, target.board_name, user.fullName, user.email, at]);
    const [unread] = await all('unread', [target.id]);
    const notification = {
      _id: noticeId, type: 'assigned', text, task: { _id: task._id, taskTitle: task.taskTitle }, board: { _id: task.boardId, name: target.board_name },
      by: { fullName: user.fullName, email: user.email }, at, readAt: null,
    };
    await all('insertEvent', ['notification.created', noticeId, null, JSON.stringify([task.assignee]), JSON.stringify({ notification, unreadCount: Number(unread?.n ?? 0) }), at]);
  }

  /** The assignment mail (a short fixed text: the app renders a template). */
  const assignmentMail = (user: User, title: string) => {
    const subject = `${user.fullName} assigned you a task: ${title}`;
    const text = `${user.fullName} (${user.email}) assigned you "${title}".`;
    return { subject, text, html: `<p>${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</p>` };
  };

  async function createTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const user = await signedIn(req, res);
    const body = await jsonBody(req);
    if (!str(body.taskTitle) || !str(body.assignee)) throw invalid();
    const now = new Date();
    const title = checkTaskTitle(body.taskTitle);
    const assignee = checkEmail(body.assignee);
    const work = checkWorkTitle(str(body.workTitle) ? body.workTitle : null);
    const deadline = checkDeadline(str(body.deadline) ? body.deadline : null, now);
    if (!title.ok || !assignee.ok || !work.ok || !deadline.ok) throw invalid();
    if (body.priority !== undefined && !oneOf(PRIORITIES, body.priority)) throw invalid();
    const priority = str(body.priority) ? body.priority : 'normal';
    const id = newId();
    const at = now.toISOString();
    const values = [id, work.value, title.value, assignee.value, user.id, deadline.value?.toISOString() ?? null, priority, at];
    // The task as it will read, for its event (the same fields the answer shows).
    const planned = toTask(
      { id, work_title: work.value, task_title: title.value, description: '', assignee_email: assignee.value, deadline: values[5], priority, status: 'todo',
        created_at: at, updated_at: at, version: 1, board_id: user.id, column_id: null, position: `Zz${id.replaceAll('-', 'A').replaceAll('_', 'B')}1`, checklist_done: 0, checklist_total: 0, repeat_every: null, repeat_unit: null },
      user.fullName, user.email);
    const event = JSON.stringify({ task: planned, by: { fullName: user.fullName, email: user.email } });
    const audience = JSON.stringify([assignee.value]);
    const mail = assignee.value !== user.email ? assignmentMail(user, title.value) : undefined;
    const since = new Date(now.getTime() - MAIL_WINDOW_MS).toISOString();
    let row: Row | undefined;
    let held = false;
    if (postgres) {
      const noticeText = `${user.fullName} assigned you ${title.value}`;
      const common = [...values, newId(), user.fullName, user.email, event, audience, newId(), noticeText];
      [row] = mail === undefined ? await db.all('createPg', common) : await db.all('createPgMail', [...common, newId(), since, mail.subject, mail.text, mail.html]);
      held = mail !== undefined && Number(row!.mailed) === 0;
    } else {
      row = await db.tx(async (all) => {
        const [inserted] = await all('insertTask', values);
        await all('insertActivity', [newId(), id, 'created', user.id, user.fullName, user.email, at, null]);
        if (mail !== undefined && Number((await all('mailWanted', [assignee.value]))[0]?.wanted) === 1) {
          const [used] = await all('mailsUsed', [user.id, since]);
          held = Number(used?.n ?? 0) >= MAIL_CAP;
          if (!held) await all('insertMail', [newId(), assignee.value, mail.subject, mail.text, mail.html, '{}', at, user.id]);
        }
        await all('insertEvent', ['task.created', id, user.id, audience, event, at]);
        await noticeSqlite(all, planned, user, at);
        return inserted;
      });
    }
    const message = held ? `${SERVER_MESSAGES.taskCreated} ${SERVER_MESSAGES.mailCapReached}` : SERVER_MESSAGES.taskCreated;
    send(res, 201, { status: 'success', message, data: { task: toTask(row!, user.fullName, user.email) } });
  }

  /** The activity entries of a change: `updated` with {field: {from, to}}, and `completed` / `reopened`. */
  function activityOf(before: Row, after: Row): { id: string; type: string; changes: string | null }[] {
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const [column, field] of TRACKED) if (before[column] !== after[column]) changes[field] = { from: before[column], to: after[column] };
    const entries: { id: string; type: string; changes: string | null }[] = [];
    if (Object.keys(changes).length > 0) entries.push({ id: newId(), type: 'updated', changes: JSON.stringify(changes) });
    if (before.status !== after.status) entries.push({ id: newId(), type: after.status === 'done' ? 'completed' : 'reopened', changes: null });
    return entries;
  }

  /** The task after `body`'s changes (400 on a bad field). */
  function changed(t: Row, body: Record<string, unknown>, now: Date): Row {
    const next = { ...t };
    if (body.taskTitle !== undefined) {
      const title = str(body.taskTitle) ? checkTaskTitle(body.taskTitle) : null;
      if (!title?.ok) throw invalid();
      next.task_title = title.value;
    }
    if (body.assignee !== undefined) {
      const email = str(body.assignee) ? checkEmail(body.assignee) : null;
      if (!email?.ok) throw invalid();
      next.assignee_email = email.value;
    }
    if (body.workTitle !== undefined) {
      const work = body.workTitle === null || str(body.workTitle) ? checkWorkTitle(body.workTitle) : null;
      if (!work?.ok) throw invalid();
      next.work_title = work.value;
    }
    if (body.deadline !== undefined && body.deadline !== t.deadline) {
      const deadline = body.deadline === null || str(body.deadline) ? checkDeadline(body.deadline === '' ? null : body.deadline, now) : null;
      if (!deadline?.ok) throw invalid();
      next.deadline = deadline.value?.toISOString() ?? null;
    }
    if (body.priority !== undefined) {
      if (!oneOf(PRIORITIES, body.priority)) throw invalid();
      next.priority = body.priority;
    }
    if (body.status !== undefined) {
      if (!oneOf(STATUSES, body.status)) throw invalid();
      next.status = body.status;
    }
    return next;
  }

  /**
   * One try of a change: `all` reads the task (404 when the user cannot see it) and writes it at
   * the version read with its activity and event. Undefined: another write changed the task
   * between the read and the write (PostgreSQL only; try again).
   */
  async function tryUpdate(all: All, id: string, user: User, body: Record<string, unknown>, now: Date): Promise<Row | undefined> {
    const [t] = await all('visibleTask', [id, user.id, user.email]);
    if (t === undefined) throw new Fail(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
    const next = changed(t, body, now);
    const assignor = t.assignor as string;
    const assignorEmail = t.assignor_email as string;
    const before = toTask(t, assignor, assignorEmail);
    if (details) await labelled([before], [t.label_ids ?? null]);
    if (!TRACKED.some(([c]) => next[c] !== t[c])) return before;
    const at = now.toISOString();
    const after = { ...toTask({ ...next, updated_at: at, version: Number(t.version) + 1 }, assignor, assignorEmail), labels: before.labels };
    const event = JSON.stringify({ task: after, by: { fullName: user.fullName, email: user.email } });
    const audience = JSON.stringify([next.assignee_email]);
    const activity = activityOf(t, next);
    const set = [id, next.work_title, next.task_title, next.assignee_email, next.deadline, next.priority, next.status, at];
    if (postgres) {
      const [row] = await all('updatePg', [...set, t.version, user.id, user.fullName, user.email, JSON.stringify(activity), t.board_id, audience, event]);
      return row === undefined ? undefined : { ...toTask(row, assignor, assignorEmail), labels: before.labels };
    }
    const [row] = await all('updateTask', set);
    for (const a of activity) await all('insertActivity', [a.id, id, a.type, user.id, user.fullName, user.email, at, a.changes]);
    await all('insertEvent', ['task.updated', id, t.board_id, audience, event, at]);
    return { ...toTask(row!, assignor, assignorEmail), labels: before.labels };
  }

  async function updateTask(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const user = await signedIn(req, res);
    const body = await jsonBody(req);
    const now = new Date();
    // PostgreSQL: a read, then ONE statement at the version read (again on a miss). SQLite: one
    // transaction, which has the database to itself.
    let task: Row | undefined;
    for (let tries = 0; task === undefined; tries++) {
      if (tries === 10) throw new Error('the task kept changing');
      task = postgres ? await tryUpdate((name, values) => db.all(name, values), id, user, body, now) : await db.tx((all) => tryUpdate(all, id, user, body, now));
    }
    send(res, 200, { status: 'success', message: SERVER_MESSAGES.taskUpdated, data: { task } });
  }

  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Per client address, in memory: at most maxAttemptsPerIp sign-ins per lock-out window.
    const ip = req.socket.remoteAddress ?? '';
    const now = Date.now();
    const recent = (attempts.get(ip) ?? []).filter((at) => at > now - LOGIN_POLICY.windowMs);
    if (recent.length >= LOGIN_POLICY.maxAttemptsPerIp) throw new Fail(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyRequests);
    recent.push(now);
    attempts.set(ip, recent);

    const body = await jsonBody(req);
    if (!str(body.email) || !str(body.password)) throw invalid();
    const email = normalizeEmail(body.email);
    const nowIso = new Date(now).toISOString();
    // Per address, in the database: the attempt counts as a failure until the password checks
    // out, so a burst of guesses cannot slip past the limit while argon2 runs.
    const locked = await db.tx(async (all) => {
      const [f] = await all('failures', [email, new Date(now - LOGIN_POLICY.windowMs).toISOString()]);
      if (Number(f?.n ?? 0) >= LOGIN_POLICY.maxFailuresPerEmail) return true;
      await all('addFailure', [randomBytes(16).toString('base64url'), email, nowIso]);
      return false;
    });
    if (locked) throw new Fail(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyRequests);
    const [user] = await db.all('userByEmail', [email]);
    const ok = user !== undefined && (await verify(user.password_hash as string, body.password).catch(() => false));
    if (!ok) throw new Fail(401, 'INVALID_CREDENTIALS', SERVER_MESSAGES.incorrectCredentials);
    const token = randomBytes(32).toString('base64url');
    const previous = cookieToken(req);
    await db.tx(async (all) => {
      await all('clearFailures', [email]);
      if (previous !== undefined) await all('dropSession', [sha256(previous)]);
      await all('dropExpired', [user.id, nowIso]);
      await all('addSession', [sha256(token), user.id, nowIso, new Date(now + TTL_MS).toISOString()]);
    });
    res.setHeader('set-cookie', sessionCookie(token));
    send(res, 200, { status: 'success', message: SERVER_MESSAGES.loginSuccess, data: { user: { fullName: user.full_name, email: user.email } } });
  }

  /**
   * POST /api/tasks/:id/attachments (the uploads bench's bare reference, not the API benchmark's):
   * the task is read as PATCH reads it (404 when the user cannot see it), the multipart body's one
   * `file` part is streamed to a file of its own under FILES_DIR (at most ATTACHMENT_MAX_MB), and
   * its row is stored with the task's count once the file is whole: 201 with the attachment's id,
   * name and size. Not done: the type read from the bytes, thumbnails, the board's storage quota,
   * the event, activity and webhooks, resumable uploads, and the answer's other fields.
   */
  async function upload(req: IncomingMessage, res: ServerResponse, taskId: string): Promise<void> {
    const user = await signedIn(req, res);
    const [t] = await db.all('visibleTask', [taskId, user.id, user.email]);
    if (t === undefined) throw new Fail(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
    const id = newId();
    const path = join(FILES_DIR, id);
    let stored: Promise<{ name: string; size: number }> | undefined;
    const parser = multipartOf(req);
    parser.on('file', (field: string, file: BusboyFileStream, name: string) => {
      if (field !== 'file' || stored !== undefined) {
        file.resume();
        return;
      }
      stored = pipeline(file, createWriteStream(path)).then(() => {
        if (file.truncated) throw new Fail(413, 'PAYLOAD_TOO_LARGE', SERVER_MESSAGES.payloadTooLarge);
        return { name, size: file.bytesRead };
      });
    });
    try {
      await pipeline(req, parser);
      if (stored === undefined) throw invalid();
      const file = await stored;
      const at = new Date().toISOString();
      await db.tx(async (all) => {
        await all('insertAttachment', [id, taskId, file.name, file.size, user.id, user.fullName, user.email, at]);
        await all('countAttachment', [taskId]);
      });
      send(res, 201, { status: 'success', data: { attachment: { _id: id, name: file.name, size: file.size } } });
    } catch (error) {
      // The file's own write may still be running (the body failed first): let it end, then remove the file.
      await stored?.catch(() => undefined);
      await rm(path, { force: true });
      throw error instanceof Fail ? error : invalid();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q === -1 ? raw : raw.slice(0, q);
    const method = req.method;
    if (path === '/api/tasks') {
      if (method === 'GET') return board(req, res, new URLSearchParams(q === -1 ? '' : raw.slice(q + 1)));
      if (method === 'POST') return createTask(req, res);
    } else if (path === '/api/users/me' && method === 'GET') {
      const user = await signedIn(req, res);
      send(res, 200, { status: 'success', data: { user: { fullName: user.fullName, email: user.email } } });
      return;
    } else if (path === '/api/health' && method === 'GET') {
      await db.all('ping', []);
      send(res, 200, { status: 'success', data: { database: 'ok' } });
      return;
    } else if (path.startsWith('/api/tasks/') && method === 'PATCH') {
      return updateTask(req, res, decodeURIComponent(path.slice('/api/tasks/'.length)));
    } else if (path === '/api/users/login' && method === 'POST') {
      return login(req, res);
    } else if (method === 'POST' && path.startsWith('/api/tasks/') && path.endsWith('/attachments')) {
      return upload(req, res, decodeURIComponent(path.slice('/api/tasks/'.length, -'/attachments'.length)));
    }
    throw new Fail(404, 'NOT_FOUND', SERVER_MESSAGES.routeNotFound);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof Fail) send(res, error.status, { status: 'fail', code: error.code, message: error.message });
      else {
        // Only unexpected errors are logged (the baseline has no request log).
        process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
        send(res, 500, { status: 'error', code: 'INTERNAL_ERROR', message: SERVER_MESSAGES.internalError });
      }
    });
  });
  server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await main();
