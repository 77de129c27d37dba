import type { Insertable, Updateable } from 'kysely';
import type { NotificationType } from '#shared/schemas/notifications.ts';
import type { DB } from '../db/schema.ts';
import { EVENT_INSERT_SQL, type eventRow } from './events-repository.ts';
import { NOTIFICATION_PLAN_FIELDS, planSelect, type PlanField } from './notifications-repository.ts';
import { TASK_COLUMNS } from './task-columns.ts';
import { EDITOR_ROLES_SQL } from './task-visibility.ts';
import { WEBHOOK_KIND } from './webhooks-repository.ts';
import type { JsonFieldType, WriteDialect } from './write-dialect.ts';

/*
 * The parts of a task write (task-write-statements.ts), each described ONCE: the table it
 * writes, its columns (typed against db/schema.ts: a column that does not exist, or a value of
 * the wrong type, does not compile), the rows it reads (most of them a JSON array bound as one
 * parameter) and its guard (the task row was written). From a description the dialect
 * (write-dialect.ts) makes both forms: a CTE of PostgreSQL's one statement, and SQLite's
 * statement(s), run one by one after the task row.
 */

/** A CTE of a write. `read`: a select (SQLite inlines it into each statement that reads it); `write`: an insert, update or delete (SQLite runs it as a statement); `row`: the task row (run first; it answers the row). */
export interface Cte {
  name: string;
  kind: 'read' | 'write' | 'row';
  /** Without its `returning` (a `row` has its own). */
  sql: string;
  /** PostgreSQL's `returning` of a write (default `1`: a CTE is counted by its rows). */
  returning?: string;
  /** `as materialized`: worked out once, never inlined into the statement that reads it. */
  materialized?: boolean;
  /**
   * A read the event writes need that can be worked out before the statement takes its locks
   * (PostgreSQL: `ordered` reads it first), so that the locks are not held while it runs.
   * Materialized, so that it is worked out whole.
   */
  beforeLocks?: boolean;
}

/**
 * Building the SQL of one shape of write (built once, cached): `param(get)` is a parameter whose
 * value `get` reads from each write; `d` the dialect.
 */
export interface Build<W> {
  d: WriteDialect;
  param: (get: (write: W) => unknown) => string;
}

const snake = (name: string) => name.replaceAll(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

declare const exprType: unique symbol;
/** An SQL expression whose value has type `V` (for a column of that type). */
export interface Expr<V> {
  readonly sql: string;
  readonly [exprType]?: V;
}
export const expr = <V>(sql: string): Expr<V> => ({ sql });

/** The fields of rows `R` whose values fit a column of type `V`. */
type FieldFor<R, V> = { [K in keyof R & string]-?: R[K] extends V ? K : never }[keyof R & string];
/** The values of an insert into `T` from rows `R`: per column (required ones required), a field of `R` of the column's type, or an expression of it. */
export type ColumnsFrom<T extends keyof DB, R> = { [C in keyof Insertable<DB[T]>]: FieldFor<R, Insertable<DB[T]>[C]> | Expr<Insertable<DB[T]>[C]> };
type JsonTypeOf<V> = [V] extends [boolean] ? 'boolean' : [V] extends [number | null] ? 'integer' : 'text';
/** Every field of JSON rows `R` with the type it is read as. */
export type JsonFields<R> = { readonly [K in keyof R & string]-?: JsonTypeOf<R[K]> };

/** Where an insert's rows come from: a FROM item and how it names a field of a row. */
interface Source<R> {
  from: string;
  field: (name: keyof R & string) => string;
}
/** The rows of a JSON array (one parameter), named `alias`. */
function jsonSource<W, R>(b: Build<W>, alias: string, json: (write: W) => string, fields: JsonFields<R>): Source<R> {
  return { from: b.d.jsonRows(b.param(json), alias, fields), field: (name) => b.d.field(alias, name) };
}
/** The rows of a read CTE (or a FROM list) whose row alias is `alias`. */
const cteSource = <R>(from: string, alias: string): Source<R> => ({ from, field: (name) => `${alias}."${name}"` });

/** An insert into `table` of the rows of `source`, where `where` holds (the write's guard included by the caller). */
function insertSelect<T extends keyof DB, R>(
  table: T,
  source: Source<R>,
  values: (field: (name: keyof R & string) => string) => ColumnsFrom<T, R>,
  where: string,
  onConflictDoNothing = false,
): string {
  const entries = Object.entries(values(source.field) as Record<string, string | Expr<unknown>>);
  const columns = entries.map(([column]) => snake(column)).join(', ');
  const selected = entries.map(([, value]) => (typeof value === 'string' ? source.field(value as keyof R & string) : value.sql)).join(', ');
  // `where` also keeps SQLite from reading `on conflict` as a join constraint of the select.
  return `insert into ${snake(table)} (${columns}) select ${selected} from ${source.from} where ${where}${onConflictDoNothing ? ' on conflict do nothing' : ''}`;
}

/** A select list of `[name, SQL]` pairs, each as `"name"`. */
const selectList = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, sql]) => `${sql} as "${name}"`)
    .join(', ');

// ---- The task row ---------------------------------------------------------------------------

const TASK_COLUMNS_SQL = TASK_COLUMNS.map(snake).join(', ');
/** The task columns an update may set, in the order its SET lists them. */
export const CHANGEABLE = [
  'workTitle', 'taskTitle', 'assigneeEmail', 'deadline', 'priority', 'status', 'description', 'boardId', 'updatedAt',
  'checklistDone', 'checklistTotal', 'repeatEvery', 'repeatUnit', 'columnId', 'position', 'startAt',
  'attachmentCount', 'coverId', 'coverWidth', 'coverHeight',
] as const satisfies readonly (keyof Updateable<DB['tasks']>)[];
export type Changeable = (typeof CHANGEABLE)[number];

/** What the task row part needs of a write. */
export interface TaskRowInput {
  id: string;
  version: number;
  /** An insert: the row's values (TASK_COLUMNS), the board and the creator. */
  row?: Readonly<Record<(typeof TASK_COLUMNS)[number], unknown>>;
  creator?: string;
  board?: string;
  changes?: Partial<Record<Changeable, unknown>>;
  nextReminderAt?: string | null | undefined;
}

/**
 * The task row: an insert (only by a creator with an editing role on the board, read by the
 * `rights` CTE, which also tells a refusal's 404 from its 403), or an update, delete or lock at
 * the version the write was planned from. It answers TASK_COLUMNS (`returning`).
 */
export function taskRowPart<W>(
  b: Build<W>,
  input: (write: W) => TaskRowInput,
  shape: { kind: 'insert' | 'update' | 'delete' | 'lock'; set: readonly Changeable[]; reminder: boolean; atTop?: boolean },
): Cte[] {
  const { param } = b;
  if (shape.kind === 'insert') {
    const values = TASK_COLUMNS.map((column) => param((w) => input(w).row?.[column]));
    const board = param((w) => input(w).board);
    // A place drawn without reading the board (services/task-places.ts, `TopHints`) holds only if
    // its column is still the first of the task's status and no task sits above its key.
    const atTop = () => {
      const column = param((w) => input(w).row?.columnId);
      return `and ${column} = (select c.id from board_columns c where c.board_id = ${board} and c.category = ${param((w) => input(w).row?.status)} order by c.position, c.id limit 1)
          and not exists (select 1 from tasks t where t.column_id = ${column} and t.position <= ${param((w) => input(w).row?.position)})`;
    };
    return [
      { name: 'rights', kind: 'read', sql: `select role from board_members where board_id = ${board} and user_id = ${param((w) => input(w).creator)}` },
      {
        name: 'task',
        kind: 'row',
        sql: `insert into tasks (${TASK_COLUMNS_SQL}, next_reminder_at) select ${values.join(', ')}, ${param((w) => input(w).nextReminderAt ?? null)}
          where exists (select 1 from rights where role in (${EDITOR_ROLES_SQL}))${shape.atTop === true ? ` ${atTop()}` : ''} returning ${TASK_COLUMNS_SQL}`,
      },
    ];
  }
  const at = `id = ${param((w) => input(w).id)} and version = ${param((w) => input(w).version)}`;
  if (shape.kind === 'update') {
    const sets = shape.set.map((column) => `${snake(column)} = ${param((w) => input(w).changes?.[column])}`);
    if (shape.reminder) sets.push(`next_reminder_at = ${param((w) => input(w).nextReminderAt)}`);
    sets.push('version = version + 1');
    return [{ name: 'task', kind: 'row', sql: `update tasks set ${sets.join(', ')} where ${at} returning ${TASK_COLUMNS_SQL}` }];
  }
  if (shape.kind === 'delete') return [{ name: 'task', kind: 'row', sql: `delete from tasks where ${at} returning ${TASK_COLUMNS_SQL}` }];
  return [{ name: 'task', kind: 'row', sql: `select ${TASK_COLUMNS_SQL} from tasks where ${at}${b.d.forUpdate}` }];
}

/** How a changeable column's value is read from a JSON row (`taskRowsPart`). */
const CHANGEABLE_TYPES: Readonly<Record<Changeable, JsonFieldType>> = {
  workTitle: 'text', taskTitle: 'text', assigneeEmail: 'text', deadline: 'text', priority: 'text', status: 'text', description: 'text', boardId: 'text',
  updatedAt: 'text', checklistDone: 'integer', checklistTotal: 'integer', repeatEvery: 'integer', repeatUnit: 'text', columnId: 'text', position: 'text',
  startAt: 'text', attachmentCount: 'integer', coverId: 'text', coverWidth: 'integer', coverHeight: 'integer',
};

/** A task row of `taskRowsPart`'s JSON array: its id, the version it was planned from, and its values of the columns set. */
export type TaskRowsRow = { id: string; version: number; nextReminderAt?: string | null } & Partial<Record<Changeable, unknown>>;

/**
 * The task rows of many writes of one shape (a change of many tasks): `taskRowPart`'s update or
 * delete, each row at the version its write was planned from, over a JSON array of rows (one
 * parameter), in one statement. It answers the TASK_COLUMNS of every row written.
 */
export function taskRowsPart<W>(b: Build<W>, json: (write: W) => string, shape: { kind: 'update' | 'delete'; set: readonly Changeable[]; reminder: boolean }): Cte[] {
  const { d } = b;
  const fields: Record<string, JsonFieldType> = { id: 'text', version: 'integer' };
  for (const column of shape.set) fields[column] = CHANGEABLE_TYPES[column];
  if (shape.reminder) fields.nextReminderAt = 'text';
  const rows = d.jsonRows(b.param(json), 'r', fields);
  const at = `tasks.id = ${d.field('r', 'id')} and tasks.version = ${d.field('r', 'version')}`;
  const returning = TASK_COLUMNS.map((column) => `tasks.${snake(column)}`).join(', ');
  if (shape.kind === 'delete') return [{ name: 'task', kind: 'row', sql: `delete from tasks using ${rows} where ${at} returning ${returning}` }];
  const sets = shape.set.map((column) => `${snake(column)} = ${d.field('r', column)}`);
  if (shape.reminder) sets.push(`next_reminder_at = ${d.field('r', 'nextReminderAt')}`);
  sets.push('version = tasks.version + 1');
  return [{ name: 'task', kind: 'row', sql: `update tasks set ${sets.join(', ')} from ${rows} where ${at} returning ${returning}` }];
}

// ---- Labels ---------------------------------------------------------------------------------

/**
 * The task's labels become exactly `ids`: the others' rows go (an update), the missing ones are
 * added. A label deleted since it was checked fails the foreign key, and with it the write.
 */
export function labelsPart<W>(b: Build<W>, taskId: (write: W) => string, ids: (write: W) => readonly string[], update: boolean): Cte[] {
  const { d, param } = b;
  const list = (w: W) => d.listValue(ids(w));
  const ctes: Cte[] = [];
  if (update) {
    ctes.push({
      name: 'unlabelled',
      kind: 'write',
      sql: `delete from task_labels where task_id = ${param(taskId)} and not (${d.inList('label_id', param(list))}) and ${d.written}`,
    });
  }
  const source: Source<{ value: string }> = { from: d.listRows(param(list), 'l'), field: () => 'l.value' };
  ctes.push({
    name: 'labelled',
    kind: 'write',
    sql: insertSelect('taskLabels', source, () => ({ taskId: expr<string>(param(taskId)), labelId: 'value' }), d.written, true),
  });
  return ctes;
}

/** A label of a task after a write (`labelRowsPart`). */
export interface TaskLabelRow {
  taskId: string;
  labelId: string;
}

/**
 * `labelsPart` of many writes at once: the labels of each task `taskIds` become exactly its rows
 * of `pairs` (a JSON array of TaskLabelRow).
 */
export function labelRowsPart<W>(b: Build<W>, taskIds: (write: W) => readonly string[], pairs: (write: W) => string, update: boolean): Cte[] {
  const { d, param } = b;
  const fields: JsonFields<TaskLabelRow> = { taskId: 'text', labelId: 'text' };
  const ctes: Cte[] = [];
  if (update) {
    const kept = jsonSource<W, TaskLabelRow>(b, 'k', pairs, fields);
    ctes.push({
      name: 'unlabelled',
      kind: 'write',
      sql: `delete from task_labels where ${d.inList('task_id', param((w) => d.listValue(taskIds(w))))}
        and not exists (select 1 from ${kept.from} where ${kept.field('taskId')} = task_labels.task_id and ${kept.field('labelId')} = task_labels.label_id) and ${d.written}`,
    });
  }
  const source = jsonSource<W, TaskLabelRow>(b, 'l', pairs, fields);
  ctes.push({ name: 'labelled', kind: 'write', sql: insertSelect('taskLabels', source, () => ({ taskId: 'taskId', labelId: 'labelId' }), d.written, true) });
  return ctes;
}

// ---- The comment row ------------------------------------------------------------------------

export type CommentRow = Omit<Insertable<DB['comments']>, 'seq' | 'mentions'> & { mentions: string };
export interface CommentChange {
  id: string;
  body: string;
  mentions: string;
  updatedAt: string;
}

export function commentPart<W>(
  b: Build<W>,
  kind: 'insert' | 'update' | 'delete',
  input: { insert: (write: W) => string; change: (write: W) => CommentChange; id: (write: W) => string },
): Cte[] {
  const { d, param } = b;
  if (kind === 'insert') {
    const fields: JsonFields<CommentRow> = {
      id: 'text', taskId: 'text', authorId: 'text', authorName: 'text', authorEmail: 'text', body: 'text', mentions: 'text', createdAt: 'text', updatedAt: 'text',
    };
    const source = jsonSource<W, CommentRow>(b, 'c', input.insert, fields);
    const values = (): ColumnsFrom<'comments', CommentRow> => ({
      id: 'id', taskId: 'taskId', authorId: 'authorId', authorName: 'authorName', authorEmail: 'authorEmail', body: 'body', mentions: 'mentions',
      createdAt: 'createdAt', updatedAt: 'updatedAt',
    });
    return [{ name: 'comment', kind: 'write', sql: insertSelect('comments', source, values, d.written) }];
  }
  const id = param(input.id);
  if (kind === 'delete') return [{ name: 'comment', kind: 'write', sql: `delete from comments where id = ${id} and ${d.written}` }];
  const set = {
    body: param((w) => input.change(w).body),
    mentions: param((w) => input.change(w).mentions),
    updatedAt: param((w) => input.change(w).updatedAt),
  } satisfies Partial<Record<keyof Updateable<DB['comments']>, string>>;
  const sets = Object.entries(set).map(([column, value]) => `${snake(column)} = ${value}`).join(', ');
  return [{ name: 'comment', kind: 'write', sql: `update comments set ${sets} where id = ${id} and ${d.written}` }];
}

// ---- Activity -------------------------------------------------------------------------------

export type ActivityRow = Omit<DB['taskActivity'], 'seq'>;
export function activityPart<W>(b: Build<W>, json: (write: W) => string): Cte[] {
  const fields: JsonFields<ActivityRow> = { id: 'text', taskId: 'text', type: 'text', actorId: 'text', actorName: 'text', actorEmail: 'text', at: 'text', changes: 'text' };
  const source = jsonSource<W, ActivityRow>(b, 'a', json, fields);
  const values = (): ColumnsFrom<'taskActivity', ActivityRow> => ({
    id: 'id', taskId: 'taskId', type: 'type', actorId: 'actorId', actorName: 'actorName', actorEmail: 'actorEmail', at: 'at', changes: 'changes',
  });
  return [{ name: 'activity', kind: 'write', sql: insertSelect('taskActivity', source, values, b.d.written) }];
}

// ---- Mails under the sender's cap -----------------------------------------------------------

/** A planned mail as its JSON row (task-write-statements.ts `mailJson`). */
export interface MailRow {
  id: string;
  kind: string;
  to: string;
  headers: string;
  subject: string;
  text: string;
  html: string;
  signupSubject: string;
  signupText: string;
  signupHtml: string;
  honoursAssigned: boolean;
  texts: string;
}
type WantedMail = Omit<MailRow, 'honoursAssigned'> & { n: number };
const MAIL_FIELDS: JsonFields<MailRow> = {
  id: 'text', kind: 'text', to: 'text', headers: 'text', subject: 'text', text: 'text', html: 'text', signupSubject: 'text', signupText: 'text', signupHtml: 'text',
  honoursAssigned: 'boolean', texts: 'text',
};

/**
 * Mails to others, counted against the sender's hourly cap: `wanted` (those the recipients'
 * settings let through, numbered), `quota` (the sender's counted mails so far; on PostgreSQL it
 * takes the sender's mail lock, after the task row's), `mail` (the first ones the cap admits,
 * each as the content for an address with an account, or the sign-up one). Held: wanted − mail.
 */
export function mailsPart<W>(
  b: Build<W>,
  input: { json: (write: W) => string; sender: (write: W) => string; since: (write: W) => string; limit: (write: W) => number; now: (write: W) => string },
): Cte[] {
  const { d, param } = b;
  const m = jsonSource<W, MailRow>(b, 'm', input.json, MAIL_FIELDS);
  const wantedFields: Record<keyof WantedMail, string> = {
    id: m.field('id'), kind: m.field('kind'), to: m.field('to'), headers: m.field('headers'), subject: m.field('subject'), text: m.field('text'), html: m.field('html'),
    signupSubject: m.field('signupSubject'), signupText: m.field('signupText'), signupHtml: m.field('signupHtml'), texts: m.field('texts'), n: 'row_number() over ()',
  };
  const wanted = selectList(wantedFields);
  const sender = param(input.sender);
  const now = param(input.now);
  const w = cteSource<WantedMail>('wanted w cross join quota q', 'w');
  const hasAccount = 'exists (select 1 from users u where u.email = w."to")';
  const content = (withAccount: keyof WantedMail, without: keyof WantedMail) =>
    expr<string>(`case when ${hasAccount} then ${w.field(withAccount)} else ${w.field(without)} end`);
  const values = (): ColumnsFrom<'outbox', WantedMail> => ({
    id: 'id', kind: 'kind', toEmail: 'to', subject: content('subject', 'signupSubject'), textBody: content('text', 'signupText'), htmlBody: content('html', 'signupHtml'),
    headers: 'headers', dedupeKey: expr<null>('null'), status: expr<'pending'>(`'pending'`), attempts: expr<number>('0'), runAt: expr<string>(now),
    lockedBy: expr<null>('null'), lockedUntil: expr<null>('null'), lastError: expr<null>('null'), createdAt: expr<string>(now), sentAt: expr<null>('null'),
    causedBy: expr<string>(sender), texts: 'texts',
  });
  return [
    {
      name: 'wanted',
      kind: 'read',
      sql: `select ${wanted} from ${m.from}
        where (not (${m.field('honoursAssigned')}) or coalesce((select s.notify_assigned from mail_settings s where s.email = ${m.field('to')}), 1) = 1)
          and ${d.written}`,
    },
    { name: 'quota', kind: 'read', sql: `select ${d.mailsUsed(sender, param(input.since))} as used where exists (select 1 from wanted)` },
    { name: 'mail', kind: 'write', sql: insertSelect('outbox', w, values, `w.n <= ${param(input.limit)} - q.used`) },
  ];
}

// ---- Notifications, their pushes and their events -------------------------------------------

/** A planned notification's row in notice_plan (notifications-repository.ts `planSelect`), with its recipient's account. */
type PlanRow = Record<Exclude<PlanField, 'type'>, string | null> & { id: string; type: NotificationType; to: string; text: string; at: string; push: string; audience: string; user_id: string };

/**
 * In-app notifications (`notice_plan`: the planned rows of recipients with an account who see
 * the task as written), stored where the type is not off in the app (`noticed`), pushed to each
 * subscription where it is not off for push (`pushed`). A person's rows past the newest
 * NOTIFICATION_POLICY.perUser go at the hourly sweep (`trimToCap` in notifications-repository.ts),
 * not here. PostgreSQL's CTEs all read the snapshot before the statement, so the unread count is
 * worked out (`notice_unread`: the rows added now and the unread ones before); SQLite's statements
 * see the rows just stored.
 */
export function notificationsPart<W>(b: Build<W>, json: (write: W) => string): Cte[] {
  const { d } = b;
  const fields = Object.fromEntries(NOTIFICATION_PLAN_FIELDS.map((name) => [name, 'text'])) as Record<PlanField, JsonFieldType>;
  const rows = d.jsonRows(b.param(json), 'i', fields);
  const select = planSelect((name) => d.field('i', name), d.taskRows, d.written);
  const plan = cteSource<PlanRow>('notice_plan i', 'i');
  const muted = (channel: 'app' | 'push') =>
    `not exists (select 1 from notification_mutes m where m.user_id = i.user_id and m.type = i."type" and m.channel = '${channel}')`;
  const notification = (): ColumnsFrom<'notifications', PlanRow> => ({
    id: 'id', userId: 'user_id', type: 'type', text: 'text', taskId: 'taskId', taskTitle: 'taskTitle', boardId: 'boardId', boardName: 'boardName',
    byName: 'byName', byEmail: 'byEmail', createdAt: 'at', readAt: expr<null>('null'),
  });
  // One push of the planned row to the subscription `s`: the payload in `text_body`, the type as
  // `subject`, not counted against anyone's mail cap; its id and dedupe key come from the
  // notification and the subscription, so a push is never queued twice.
  const pushes = cteSource<PlanRow>('notice_plan i join push_subscriptions s on s.user_id = i.user_id', 'i');
  const push = (): ColumnsFrom<'outbox', PlanRow> => ({
    id: expr<string>(`i."id" || '-' || s.id`), kind: expr<string>(`'push'`), toEmail: 'to', subject: 'type', textBody: 'push', htmlBody: expr<string>(`''`),
    headers: expr<string>(`'{}'`), dedupeKey: expr<string>(`'push:' || i."id" || ':' || s.id`), status: expr<'pending'>(`'pending'`), attempts: expr<number>('0'),
    runAt: 'at', lockedBy: expr<null>('null'), lockedUntil: expr<null>('null'), lastError: expr<null>('null'), createdAt: 'at', sentAt: expr<null>('null'),
    causedBy: expr<null>('null'), pushSubscriptionId: expr<string>('s.id'),
  });
  const ctes: Cte[] = [
    { name: 'notice_plan', kind: 'read', sql: `${select.head} ${rows} ${select.tail}` },
    { name: 'noticed', kind: 'write', sql: insertSelect('notifications', plan, notification, muted('app')), returning: 'id, user_id' },
    { name: 'pushed', kind: 'write', sql: insertSelect('outbox', pushes, push, muted('push')) },
  ];
  if (d.oneStatement) {
    ctes.push({
      name: 'notice_unread',
      kind: 'read',
      // The rows added now and a walk of the account's unread rows before: not under the event-order lock.
      beforeLocks: true,
      sql: `select s.user_id, count(*) + (select count(*) from notifications o where o.user_id = s.user_id and o.read_at is null) as n from noticed s group by s.user_id`,
    });
  }
  return ctes;
}

/**
 * The `notification.created` events of the stored notifications (after the task's own events:
 * ids are drawn in this order), each with the Notification JSON (unread) and the account's
 * unread count after the write, in EVENT_INSERT_SQL's column order.
 */
export function notificationEventsPart<W>(b: Build<W>, after: string | undefined): Cte[] {
  const { d } = b;
  const f = (name: PlanField) => `i."${name}"`;
  const nullable = (key: string, object: string) => `case when ${key} is null then null else ${object} end`;
  const notification = d.jsonObject([
    ['_id', f('id')],
    ['type', f('type')],
    ['text', f('text')],
    ['task', nullable(f('taskId'), d.jsonObject([['_id', f('taskId')], ['taskTitle', `coalesce(${f('taskTitle')}, '')`]]))],
    ['board', nullable(f('boardId'), d.jsonObject([['_id', f('boardId')], ['name', `coalesce(${f('boardName')}, '')`]]))],
    ['by', nullable(f('byEmail'), d.jsonObject([['fullName', `coalesce(${f('byName')}, '')`], ['email', f('byEmail')]]))],
    ['at', f('at')],
    ['readAt', 'null'],
  ]);
  const unread = d.oneStatement ? 'un.n' : '(select count(*) from notifications o where o.user_id = i.user_id and o.read_at is null)';
  const joins = d.oneStatement ? 'join noticed s on s.id = i."id" join notice_unread un on un.user_id = i.user_id' : 'join notifications s on s.id = i."id"';
  const wait = after === undefined || !d.oneStatement ? '' : ` where (select count(*) from ${after}) >= 0`;
  return [
    {
      name: 'notice_event',
      kind: 'write',
      sql: `${EVENT_INSERT_SQL} select n.* from ${d.eventsFrom}(select 'notification.created' as type, i."id" as subject_id, null as board_id, i."audience" as audience,
          null as from_board_id, null as from_audience, '{"notification":' || ${d.jsonText(notification)} || ',"unreadCount":' || ${unread} || '}' as payload,
          i."at" as created_at
        from notice_plan i ${joins}) n${wait}`,
      returning: 'id',
    },
  ];
}

// ---- Webhook deliveries ---------------------------------------------------------------------

/** An event a webhook may want, as its JSON row (webhooks-repository.ts `webhookEventJson`). */
export interface HookRow {
  key: string;
  type: string;
  boardId: string;
  at: string;
  body: string;
}

/**
 * One outbox row per event and active webhook of the event's board that asked for its type. A
 * board without webhooks costs one probe of webhooks_board_idx.
 */
export function webhooksPart<W>(b: Build<W>, json: (write: W) => string): Cte[] {
  const { d } = b;
  const h = jsonSource<W, HookRow>(b, 'h', json, { key: 'text', type: 'text', boardId: 'text', at: 'text', body: 'text' });
  const source: Source<HookRow> = { from: `${h.from} join webhooks w on w.board_id = ${h.field('boardId')} and w.active = 1`, field: h.field };
  const values = (f: (name: keyof HookRow) => string): ColumnsFrom<'outbox', HookRow> => ({
    id: expr<string>(`${f('key')} || w.id`), kind: expr<string>(`'${WEBHOOK_KIND}'`), toEmail: expr<string>(`''`), subject: 'type', textBody: 'body', htmlBody: expr<string>(`''`),
    headers: expr<string>(`'{"webhook-id":"msg_' || ${f('key')} || w.id || '"}'`), dedupeKey: expr<null>('null'), status: expr<'pending'>(`'pending'`),
    attempts: expr<number>('0'), runAt: 'at', lockedBy: expr<null>('null'), lockedUntil: expr<null>('null'), lastError: expr<null>('null'), createdAt: 'at',
    sentAt: expr<null>('null'), causedBy: expr<null>('null'), webhookId: expr<string>('w.id'),
  });
  return [{ name: 'hooked', kind: 'write', sql: insertSelect('outbox', source, values, `${d.written} and ${d.inJsonArray(h.field('type'), 'w.events')}`) }];
}

// ---- Events ---------------------------------------------------------------------------------

export type EventJsonRow = ReturnType<typeof eventRow>;
type Holds<T extends true> = T;
/** An event's row fits the events table: checked by the compiler. */
export type EventRowFitsTable = Holds<EventJsonRow extends Insertable<DB['events']> ? true : false>;
/** The fields of `eventRow`, in its order, which is EVENT_INSERT_SQL's column order. */
const EVENT_FIELDS: JsonFields<EventJsonRow> = {
  type: 'text', subjectId: 'text', boardId: 'text', audience: 'text', fromBoardId: 'text', fromAudience: 'text', payload: 'text', createdAt: 'text',
};

/**
 * The write's own events, in order, through the event log's one insert (EVENT_INSERT_SQL), after
 * the event-order lock on PostgreSQL (see appendEvent).
 */
export function eventsPart<W>(b: Build<W>, json: (write: W) => string): Cte[] {
  const e = jsonSource<W, EventJsonRow>(b, 'e', json, EVENT_FIELDS);
  const select = (Object.keys(EVENT_FIELDS) as (keyof EventJsonRow)[]).map((name) => e.field(name)).join(', ');
  return [{ name: 'event', kind: 'write', sql: `${EVENT_INSERT_SQL} select ${select} from ${b.d.eventsFrom}${e.from} where true`, returning: 'id' }];
}
