import { CompiledQuery } from 'kysely';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { newId } from '../db/ids.ts';
import type { MailContent, MailTexts } from '../mail/templates.ts';
import type { NewActivity } from './activity-repository.ts';
import type { NewComment } from './comments-repository.ts';
import { planJson, type PlannedNotification } from './notifications-repository.ts';
import { eventRow, type EventTransaction, type NewEvent } from './events-repository.ts';
import { webhookEventJson } from './webhooks-repository.ts';
import { TASK_COLUMNS, type TaskColumnValues } from './task-columns.ts';
import { newTaskRow, toTaskJson, type Creator, type NewTask } from './tasks-repository.ts';
import { writeDialect, type WriteDialect } from './write-dialect.ts';
import {
  activityPart,
  CHANGEABLE,
  commentPart,
  eventsPart,
  labelRowsPart,
  labelsPart,
  mailsPart,
  notificationEventsPart,
  notificationsPart,
  taskRowPart,
  taskRowsPart,
  webhooksPart,
  type Build,
  type Changeable,
  type CommentRow,
  type Cte,
  type MailRow,
  type TaskLabelRow,
  type TaskRowInput,
  type TaskRowsRow,
} from './write-parts.ts';

/** A mail a write causes to someone else: counted against its sender's hourly cap. */
export interface PlannedMail {
  id: string;
  kind: string;
  to: string;
  headers: Record<string, string>;
  /**
   * The English copy kept with the row, for an address with an account (a link to the task) or
   * without one (a link to sign-up). Written only when the row is: past the sender's cap, on
   * SQLite, it is not (`sqlite` below checks the cap first).
   */
  content: (hasAccount: boolean) => MailContent;
  /** Left out when the address turned assignment mail off. */
  honoursAssignedOptOut: boolean;
  /** What the mail is made of: the sender writes it in its reader's language. */
  texts: MailTexts;
}

/** The comment row a comment write changes. */
export type CommentWrite =
  | { insert: NewComment }
  | { update: { id: string; body: string; mentions: string; updatedAt: string } }
  | { delete: { id: string } };

/** Everything a write stores besides the task row; all of it commits with the task row or not at all. */
export interface WriteParts {
  activity: NewActivity[];
  mails: PlannedMail[];
  /**
   * In-app notifications the write causes (services/notifications.ts): stored, pushed and
   * announced with their `notification.created` events only if the task write happens.
   */
  notifications: PlannedNotification[];
  /** Appended last (see appendEvent for why the order matters). */
  events: NewEvent[];
  /** `tasks.next_reminder_at` after the write; undefined leaves it as it is. */
  nextReminderAt?: string | null;
  comment?: CommentWrite;
}

/**
 * What happens to the task row. Every kind but `insert` names the version the parts were
 * computed from: the statement touches the row only at that version, holding its lock until
 * the commit, so the parts (event audiences, activity "from" values) match what commits.
 * `labels` (insert, update): the task's whole set of labels after the write, by name, written
 * with the task row; undefined leaves them as they are.
 */
export type WriteTarget =
  /**
   * `atTop`: the task's place was drawn from what this instance last knew of the board, not read:
   * the insert writes nothing (an answer with no task and an editing `boardRole`) when its column
   * is no longer the first of its status or a task sits at or above its key.
   */
  | { kind: 'insert'; task: NewTask; creator: Creator; labels?: Label[] | undefined; atTop?: boolean }
  | { kind: 'update'; before: Task; changes: Partial<Omit<NewTask, 'id' | 'createdBy' | 'createdAt'>>; labels?: Label[] | undefined }
  | { kind: 'delete'; before: Task }
  /** Only locks the row (a comment write): the task itself does not change. */
  | { kind: 'lock'; before: Task };

/** The sender's mail cap: at most `limit` counted mails written after `since`. */
export interface MailCap {
  sender: string;
  since: string;
  limit: number;
  now: string;
}

export interface WriteResult {
  /**
   * The task as written (deleted: as it was); undefined when the row was not at the expected
   * version, or (insert) when the creator may not create tasks on the board or an `atTop`
   * place no longer holds (then `boardRole` is an editing role).
   */
  task: Task | undefined;
  /** An insert: the creator's role on the task's board, read by the insert itself (null: not an active member, or no such board). */
  boardRole?: string | null;
  /** Mails left unwritten because the sender reached the cap. */
  mailsHeld: number;
  /** Push rows written to the outbox (for the notifications' recipients' subscriptions). */
  pushes: number;
  /** Webhook deliveries written to the outbox (one per event and webhook that wants it). */
  webhooks: number;
}


/** A planned mail as the mail part's JSON row. */
const mailJson = (mails: readonly PlannedMail[]) =>
  JSON.stringify(
    mails.map((m): MailRow => {
      const withAccount = m.content(true);
      const withoutAccount = m.content(false);
      return {
        id: m.id,
        kind: m.kind,
        to: m.to,
        headers: JSON.stringify(m.headers),
        subject: withAccount.subject,
        text: withAccount.text,
        html: withAccount.html,
        signupSubject: withoutAccount.subject,
        signupText: withoutAccount.text,
        signupHtml: withoutAccount.html,
        honoursAssigned: m.honoursAssignedOptOut,
        texts: JSON.stringify(m.texts),
      };
    }),
  );
/** Only what decides whether a planned mail is wanted (its address and whether it honours the opt-out): enough to count them. */
const mailKeysJson = (mails: readonly PlannedMail[]) => JSON.stringify(mails.map((m): Pick<MailRow, 'to' | 'honoursAssigned'> => ({ to: m.to, honoursAssigned: m.honoursAssignedOptOut })));
const commentJson = (c: NewComment) => {
  const row: CommentRow = { ...c, mentions: c.mentions ?? '[]' };
  return JSON.stringify([row]);
};

/** A write as its parts read it: the caller's target, parts and cap, and what is made of them once per write. */
interface WriteInput {
  target: WriteTarget;
  parts: WriteParts;
  cap: MailCap | undefined;
  row: TaskRowInput;
  /** The events webhooks may want, as JSON rows (each with a fresh delivery key). */
  hooks: string | undefined;
  /** Many writes of one shape as one (`writeMany`): their task rows, and their tasks' labels after the write. */
  batch?: { rows: TaskRowsRow[]; taskIds: string[]; labels: TaskLabelRow[] };
}
type Param = (write: WriteInput) => unknown;

/** SQL text and the readers of its parameters, in placeholder order. */
interface Statement {
  sql: string;
  params: readonly Param[];
}
const compiled = (statement: Statement, write: WriteInput) => CompiledQuery.raw(statement.sql, statement.params.map((get) => get(write)));

/** One shape of write (which parts it has), built once. */
interface Shape {
  /** PostgreSQL: the one statement. */
  postgres?: Statement;
  /**
   * SQLite: the task row, the creator's role (read when an insert is refused), the other parts'
   * statements in order, and (with mails) the count of wanted mails and of the sender's mails
   * under the cap, read before the `mail` step (which runs only when the cap leaves room).
   */
  sqlite?: { row: Statement; rights?: Statement; steps: { name: string; statement: Statement }[]; mailCheck?: Statement };
}

const TASK_COLUMNS_SQL = TASK_COLUMNS.map((c) => c.replaceAll(/[A-Z]/g, (x) => `_${x.toLowerCase()}`)).join(', ');
/** Around a parameter's number in the SQL of the parts, until it becomes a placeholder. */
const MARK = '\u2039';
const MARK_END = '\u203a';
const SHAPES_MAX = 512;

const changedColumns = (target: WriteTarget): Changeable[] =>
  target.kind === 'update' ? CHANGEABLE.filter((column) => (target.changes as Partial<Record<Changeable, unknown>>)[column] !== undefined) : [];
const labelsOf = (target: WriteTarget): readonly Label[] | undefined => (target.kind === 'insert' || target.kind === 'update' ? target.labels : undefined);
const withMails = (parts: WriteParts, cap: MailCap | undefined) => parts.mails.length > 0 && cap !== undefined;

/** What decides the SQL text of a write's task row: the kind of task write, the columns it sets, the reminder, the labels. */
function rowKey(target: WriteTarget, parts: WriteParts): string {
  const reminder = target.kind !== 'insert' && parts.nextReminderAt !== undefined ? 'r' : '';
  const atTop = target.kind === 'insert' && target.atTop === true ? 't' : '';
  return [target.kind, changedColumns(target).join(','), reminder, labelsOf(target) === undefined ? '' : 'l', atTop].join('|');
}

/** What decides a write's SQL text: its task row (`rowKey`), which other parts it has, and whether it is many writes as one. */
function shapeKey(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, hooks: string | undefined, many: boolean): string {
  const comment = parts.comment === undefined ? '' : 'insert' in parts.comment ? 'ci' : 'update' in parts.comment ? 'cu' : 'cd';
  return [
    many ? 'many' : 'one',
    rowKey(target, parts),
    comment,
    parts.activity.length > 0 ? 'a' : '',
    withMails(parts, cap) ? 'm' : '',
    parts.notifications.length > 0 ? 'n' : '',
    hooks === undefined ? '' : 'h',
    parts.events.length > 0 ? 'e' : '',
  ].join('|');
}

/**
 * The SQL of one shape of write, from the parts' descriptions (write-parts.ts): every part
 * present, in the order their rows are written (task row, labels, comment, activity, mails,
 * notifications, webhook deliveries, events, the notifications' events).
 */
function buildShape(d: WriteDialect, target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, hooks: string | undefined, many: boolean): Shape {
  const params: Param[] = [];
  const b: Build<WriteInput> = {
    d,
    param(get) {
      params.push(get);
      return `${MARK}${params.length - 1}${MARK_END}`;
    },
  };
  const ctes: Cte[] = [];
  /** The writes of a batch (`many`). */
  const batch = (w: WriteInput) => {
    if (w.batch === undefined) throw new Error('Many writes without their batch');
    return w.batch;
  };
  if (many) {
    if (target.kind !== 'update' && target.kind !== 'delete') throw new Error(`Many writes of kind ${target.kind}`);
    ctes.push(...taskRowsPart(b, (w) => JSON.stringify(batch(w).rows), { kind: target.kind, set: changedColumns(target), reminder: parts.nextReminderAt !== undefined }));
  } else {
    ctes.push(
      ...taskRowPart(b, (w) => w.row, {
        kind: target.kind,
        set: changedColumns(target),
        reminder: target.kind === 'insert' || parts.nextReminderAt !== undefined,
        atTop: target.kind === 'insert' && target.atTop === true,
      }),
    );
  }
  if (labelsOf(target) !== undefined) {
    const update = target.kind === 'update';
    ctes.push(
      ...(many
        ? labelRowsPart(b, (w) => batch(w).taskIds, (w) => JSON.stringify(batch(w).labels), update)
        : labelsPart(b, (w) => w.row.id, (w) => (labelsOf(w.target) ?? []).map((l) => l._id), update)),
    );
  }
  const comment = parts.comment;
  if (comment !== undefined) {
    const kind = 'insert' in comment ? 'insert' : 'update' in comment ? 'update' : 'delete';
    /** The write's comment change, of this shape's kind. */
    const change = (w: WriteInput): CommentWrite => {
      if (w.parts.comment === undefined) throw new Error('A comment write without its comment');
      return w.parts.comment;
    };
    ctes.push(
      ...commentPart(b, kind, {
        insert: (w) => {
          const c = change(w);
          if (!('insert' in c)) throw new Error('A comment write of another kind');
          return commentJson(c.insert);
        },
        change: (w) => {
          const c = change(w);
          if (!('update' in c)) throw new Error('A comment write of another kind');
          return c.update;
        },
        id: (w) => {
          const c = change(w);
          return 'update' in c ? c.update.id : 'delete' in c ? c.delete.id : c.insert.id;
        },
      }),
    );
  }
  if (parts.activity.length > 0) ctes.push(...activityPart(b, (w) => JSON.stringify(w.parts.activity)));
  /** SQLite: how many of the planned mails are wanted, and how many the sender has used of the cap. */
  let mailCheck: string | undefined;
  if (withMails(parts, cap)) {
    const capOf = (w: WriteInput): MailCap => {
      if (w.cap === undefined) throw new Error('A write with mails and no cap');
      return w.cap;
    };
    const mails = (json: (w: WriteInput) => string) =>
      mailsPart(b, { json, sender: (w) => capOf(w).sender, since: (w) => capOf(w).since, limit: (w) => capOf(w).limit, now: (w) => capOf(w).now });
    ctes.push(...mails((w) => mailJson(w.parts.mails)));
    if (!d.oneStatement) {
      // The same reads, of the planned mails' addresses alone: checked before the mails are
      // written out, so a write past the cap never renders or parses them.
      const reads = mails((w) => mailKeysJson(w.parts.mails)).filter((c) => c.kind === 'read');
      mailCheck = `with ${reads.map((c) => `${c.name} as (${c.sql})`).join(', ')} select (select count(*) from wanted) as n, (select used from quota) as used`;
    }
  }
  const notes = parts.notifications.length > 0;
  if (notes) ctes.push(...notificationsPart(b, (w) => planJson(w.parts.notifications)));
  if (hooks !== undefined) ctes.push(...webhooksPart(b, (w) => w.hooks ?? '[]'));
  const events = parts.events.length > 0;
  if (events || notes) {
    // The sender's mail lock (taken by `quota`, held to the commit) is taken after every other
    // write: the same sender's writes queue on it for as short a time as the event-order lock.
    // Reads the event writes need that can be worked out first (`beforeLocks`) come before it.
    const writes = ctes.filter((c) => c.kind === 'write').map((c) => c.name);
    const early = ctes.filter((c) => c.beforeLocks === true).map((c) => c.name);
    const lockLast = [...writes.filter((name) => name !== 'mail'), ...early, ...writes.filter((name) => name === 'mail')];
    ctes.push(...d.eventOrderLock(lockLast).map((sql): Cte => ({ name: 'ordered', kind: 'read', sql })));
    if (events) ctes.push(...eventsPart(b, (w) => JSON.stringify(w.parts.events.map(eventRow))));
    if (notes) ctes.push(...notificationEventsPart(b, events ? 'event' : undefined));
    ctes.push(...d.notify(ctes.filter((c) => c.name === 'event' || c.name === 'notice_event').map((c) => c.name)).map((sql): Cte => ({ name: 'notified', kind: 'read', sql })));
  }
  const has = (name: string) => ctes.some((c) => c.name === name);

  /** The text with the parameter marks replaced by the dialect's placeholders (PostgreSQL numbers one parameter once). */
  const statement = (text: string): Statement => {
    const used: Param[] = [];
    const numbers = new Map<number, number>();
    const sql = text.replaceAll(/\u2039(\d+)\u203a/g, (_, mark: string) => {
      const index = Number(mark);
      const get = params[index];
      if (get === undefined) throw new Error('A write part used an unknown parameter');
      let n = d.oneStatement ? numbers.get(index) : undefined;
      if (n === undefined) {
        used.push(get);
        n = used.length;
        numbers.set(index, n);
      }
      return d.placeholder(n);
    });
    return { sql, params: used };
  };

  if (d.oneStatement) {
    const withs = ctes.map((c) => {
      const returning = c.kind === 'write' ? ` returning ${c.returning ?? '1'}` : '';
      return `${c.name} as ${c.materialized === true || c.beforeLocks === true ? 'materialized ' : ''}(${c.sql}${returning})`;
    });
    const count = (name: string) => `(select count(*) from ${name})`;
    const held = has('mail') ? `${count('wanted')} - ${count('mail')}` : '0';
    const pushes = has('pushed') ? count('pushed') : '0';
    const webhooks = has('hooked') ? count('hooked') : '0';
    const notified = has('notified') ? d.notified : '0';
    // An insert answers one row even when refused: its columns null and the creator's role.
    const from = target.kind === 'insert' ? '(select 1 as one) one left join task on true' : 'task';
    const role = target.kind === 'insert' ? ', (select role from rights) as board_role' : '';
    // PostgreSQL runs a CTE when the statement first reads it; the final select reads
    // `notified` first, so the writes run in the order `ordered` reads them (the mail last).
    return {
      postgres: statement(
        `with ${withs.join(',\n')}\nselect ${TASK_COLUMNS_SQL}, ${notified} as notified, ${pushes} as pushes, ${webhooks} as webhooks, ${held} as mails_held${role} from ${from}`,
      ),
    };
  }

  // SQLite: each write (and the task row) is a statement, with the reads it needs as its WITH.
  const reads = ctes.filter((c) => c.kind === 'read');
  const reads_ = (text: string, seen: Set<string>) => {
    for (const read of reads) {
      if (!seen.has(read.name) && new RegExp(`\\b${read.name}\\b`).test(text)) {
        seen.add(read.name);
        reads_(read.sql, seen);
      }
    }
  };
  const withReads = (text: string) => {
    const seen = new Set<string>();
    reads_(text, seen);
    const used = reads.filter((read) => seen.has(read.name));
    return statement(used.length === 0 ? text : `with ${used.map((read) => `${read.name} as ${read.materialized === true ? 'materialized ' : ''}(${read.sql})`).join(', ')} ${text}`);
  };
  const row = ctes.find((c) => c.kind === 'row');
  if (row === undefined) throw new Error('A write without its task row');
  return {
    sqlite: {
      row: withReads(row.sql),
      ...(has('rights') ? { rights: withReads('select role from rights') } : {}),
      steps: ctes.filter((c) => c.kind === 'write').map((c) => ({ name: c.name, statement: withReads(c.sql) })),
      ...(mailCheck === undefined ? {} : { mailCheck: statement(mailCheck) }),
    },
  };
}

/**
 * The writes of a task change or a comment change, built from the descriptions of their parts
 * (write-parts.ts) through the dialect (write-dialect.ts). PostgreSQL: ONE statement of
 * data-modifying CTEs, which is its own transaction: the task row (insert, or update/delete/lock
 * at the expected version), then the labels, comment, activity and outbox rows, then the events
 * (after the event-order lock) and the NOTIFY. Every part reads `task`, so a row that is not at
 * the expected version writes nothing at all. The parts that read another part's output run
 * after it, which orders the locks: task row, then the other parts' rows (labels, comment,
 * activity, notifications, pushes, webhook deliveries), then the sender's mail lock
 * (mail_quota_used), then the event-order lock: the same order in every write, so writes cannot
 * deadlock on them, and the two locks every write of a sender or of the log waits for are held
 * for as little of the statement as can be.
 * SQLite: the same parts, one statement each, after the task row, inside the caller's
 * transaction (SQLite has one writer at a time, and a statement there costs no network trip).
 * The SQL text depends only on the write's shape (which parts it has); it is built once per
 * shape and kept, and each write only binds its values.
 */
export function createTaskWriteStatements(dialect: Dialect) {
  const d = writeDialect(dialect);
  const shapes = new Map<string, Shape>();

  const shapeOf = (write: WriteInput): Shape => {
    const many = write.batch !== undefined;
    const key = shapeKey(write.target, write.parts, write.cap, write.hooks, many);
    let shape = shapes.get(key);
    if (shape === undefined) {
      if (shapes.size >= SHAPES_MAX) shapes.clear();
      shape = buildShape(d, write.target, write.parts, write.cap, write.hooks, many);
      shapes.set(key, shape);
    }
    return shape;
  };

  /** The task as written, from its row (TASK_COLUMNS, read as an object by CamelCasePlugin's names), with its creator and labels. */
  const taskOf = (target: WriteTarget, row: Record<string, unknown>): Task => {
    const creator: Creator = target.kind === 'insert' ? target.creator : { fullName: target.before.assignor, email: target.before.assignorEmail };
    const values = TASK_COLUMNS.map((column) => row[column]) as unknown as TaskColumnValues;
    const labels = labelsOf(target) ?? (target.kind === 'insert' ? [] : target.before.labels);
    return toTaskJson([...values, creator.fullName, creator.email], [...labels]);
  };
  const missed = { task: undefined, mailsHeld: 0, pushes: 0, webhooks: 0 };

  async function postgres(write: WriteInput, statement: Statement, ex: EventTransaction): Promise<WriteResult> {
    const { rows } = await ex.executeQuery<Record<string, unknown>>(compiled(statement, write));
    const row = rows[0];
    if (row === undefined) return missed;
    const boardRole = write.target.kind === 'insert' ? { boardRole: (row.boardRole as string | null | undefined) ?? null } : {};
    if (row.id === null) return { ...missed, ...boardRole };
    return { task: taskOf(write.target, row), mailsHeld: Number(row.mailsHeld), pushes: Number(row.pushes), webhooks: Number(row.webhooks), ...boardRole };
  }

  /** What the task row part reads of a write. */
  const rowInput = (target: WriteTarget, parts: WriteParts): TaskRowInput =>
    target.kind === 'insert'
      ? { id: target.task.id, version: 1, row: newTaskRow(target.task), creator: target.task.createdBy, board: target.task.boardId, nextReminderAt: parts.nextReminderAt }
      : { id: target.before._id, version: target.before.version, ...(target.kind === 'update' ? { changes: target.changes } : {}), nextReminderAt: parts.nextReminderAt };

  /**
   * Writes `target` and `parts` together. PostgreSQL: one statement, on `ex` (the pool from
   * `events.statement`, its own transaction; or `events.transaction`'s). SQLite: `ex` is
   * `events.transaction`'s transaction. Either way the streams are woken after the commit.
   */
  function write(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, ex: EventTransaction): Promise<WriteResult> {
    const input: WriteInput = { target, parts, cap, row: rowInput(target, parts), hooks: webhookEventJson(parts.events, newId) };
    const shape = shapeOf(input);
    if (shape.postgres !== undefined) return postgres(input, shape.postgres, ex);
    if (shape.sqlite !== undefined) return sqlite(input, shape.sqlite, ex);
    throw new Error('A write shape without SQL');
  }

  async function sqlite(write: WriteInput, shape: NonNullable<Shape['sqlite']>, ex: EventTransaction): Promise<WriteResult> {
    const { rows } = await ex.executeQuery<Record<string, unknown>>(compiled(shape.row, write));
    const row = rows[0];
    if (row === undefined) {
      if (shape.rights === undefined) return missed;
      // A refused insert: the creator's role tells its 404 (not a member) from its 403 (a viewer).
      const role = (await ex.executeQuery<{ role: string }>(compiled(shape.rights, write))).rows[0]?.role ?? null;
      return { ...missed, boardRole: role };
    }
    const written = new Map<string, number>();
    /** Mails wanted (read before the `mail` step); those it did not write are held by the cap. */
    let wanted = 0;
    for (const step of shape.steps) {
      if (step.name === 'mail' && shape.mailCheck !== undefined) {
        const check = (await ex.executeQuery<{ n: number; used: number | null }>(compiled(shape.mailCheck, write))).rows[0];
        wanted = check?.n ?? 0;
        // No mail wanted, or the cap reached: the step would write no row.
        if (wanted === 0 || (check?.used ?? 0) >= (write.cap?.limit ?? 0)) continue;
      }
      const result = await ex.executeQuery(compiled(step.statement, write));
      written.set(step.name, Number(result.numAffectedRows ?? 0));
    }
    const mailsHeld = wanted - (written.get('mail') ?? 0);
    return { task: taskOf(write.target, row), mailsHeld, pushes: written.get('pushed') ?? 0, webhooks: written.get('hooked') ?? 0 };
  }

  return {
    write,

    /**
     * Writes many planned writes of existing tasks (a change of many tasks), each as `write` would
     * write it alone, in the caller's transaction (`ex`, holding their rows' locks): the answers
     * in the writes' order, and what each statement wrote (for the after-commit hooks).
     * PostgreSQL: the writes of one task row shape (`rowKey`: the same kind, columns set, reminder
     * and labels) are ONE statement of the same parts, each part's rows the writes' rows merged
     * into one array (so the sender's mail cap counts the mails of the whole change at once, and
     * a recipient's notification events carry their unread count after the whole statement).
     * SQLite (no network): one write after the other.
     */
    async writeMany(
      writes: readonly { target: WriteTarget; parts: WriteParts }[],
      cap: MailCap | undefined,
      ex: EventTransaction,
    ): Promise<{ results: WriteResult[]; written: [WriteParts, WriteResult][] }> {
      const results: WriteResult[] = [];
      const written: [WriteParts, WriteResult][] = [];
      if (!d.oneStatement) {
        for (const { target, parts } of writes) {
          const result = await write(target, parts, cap, ex);
          results.push(result);
          written.push([parts, result]);
        }
        return { results, written };
      }
      // The writes by shape of task row, each group in the writes' order, the groups in the order of their first write.
      const groups = new Map<string, number[]>();
      for (const [i, { target, parts }] of writes.entries()) {
        const key = rowKey(target, parts);
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [i]);
        else group.push(i);
      }
      const byWrite: WriteResult[] = [];
      for (const indexes of groups.values()) {
        const group = indexes.map((i) => writes[i]).filter((w) => w !== undefined);
        const [first] = group;
        if (first === undefined) continue;
        if (group.length === 1) {
          const result = await write(first.target, first.parts, cap, ex);
          byWrite[indexes[0] ?? 0] = result;
          written.push([first.parts, result]);
          continue;
        }
        const parts: WriteParts = {
          activity: group.flatMap((w) => w.parts.activity),
          mails: group.flatMap((w) => w.parts.mails),
          notifications: group.flatMap((w) => w.parts.notifications),
          events: group.flatMap((w) => w.parts.events),
          ...(first.parts.nextReminderAt === undefined ? {} : { nextReminderAt: first.parts.nextReminderAt }),
        };
        // The events webhooks may want: all of them, each with its own delivery key.
        const hooks = webhookEventJson(parts.events, newId);
        const batch: NonNullable<WriteInput['batch']> = { rows: [], taskIds: [], labels: [] };
        for (const { target, parts: own } of group) {
          const row = rowInput(target, own);
          batch.rows.push({ ...(row.changes ?? {}), id: row.id, version: row.version, ...(own.nextReminderAt === undefined ? {} : { nextReminderAt: own.nextReminderAt }) });
          batch.taskIds.push(row.id);
          for (const label of labelsOf(target) ?? []) batch.labels.push({ taskId: row.id, labelId: label._id });
        }
        const input: WriteInput = { target: first.target, parts, cap, row: rowInput(first.target, first.parts), hooks, batch };
        const statement = shapeOf(input).postgres;
        if (statement === undefined) throw new Error('A write shape without SQL');
        const { rows } = await ex.executeQuery<Record<string, unknown>>(compiled(statement, input));
        const rowOf = new Map(rows.map((row) => [row.id as string, row]));
        for (const [k, { target }] of group.entries()) {
          const row = rowOf.get(target.kind === 'insert' ? target.task.id : target.before._id);
          byWrite[indexes[k] ?? 0] = row === undefined ? missed : { task: taskOf(target, row), mailsHeld: 0, pushes: 0, webhooks: 0 };
        }
        const totals = rows[0];
        written.push([
          parts,
          totals === undefined ? missed : { task: undefined, mailsHeld: Number(totals.mailsHeld), pushes: Number(totals.pushes), webhooks: Number(totals.webhooks) },
        ]);
      }
      results.push(...byWrite);
      return { results, written };
    },
  };
}
