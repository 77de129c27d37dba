import { CompiledQuery } from 'kysely';
import { canEditTasks } from '#shared/rights.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import type { MailContent } from '../mail/templates.ts';
import type { ActivityRepository, NewActivity } from './activity-repository.ts';
import type { CommentsRepository, NewComment } from './comments-repository.ts';
import type { LabelsRepository } from './labels-repository.ts';
import { notificationCtes, type NotificationsRepository, type PlannedNotification } from './notifications-repository.ts';
import { appendEvent, EVENT_CHANNEL_SQL, EVENT_INSERT_SQL, EVENT_ORDER_LOCK_SQL, eventRow, type EventTransaction, type NewEvent } from './events-repository.ts';
import type { OutboxRepository } from './outbox-repository.ts';
import { webhookCtes, webhookEventJson, type WebhooksRepository } from './webhooks-repository.ts';
import { TASK_COLUMNS, type TaskColumnValues } from './task-columns.ts';
import { newTaskRow, toTaskJson, type Creator, type NewTask, type TasksRepository } from './tasks-repository.ts';
import { EDITOR_ROLES_SQL } from './task-visibility.ts';

/** A mail a write causes to someone else: counted against its sender's hourly cap. */
export interface PlannedMail {
  id: string;
  kind: string;
  to: string;
  headers: Record<string, string>;
  /** What an address with an account gets (a link to the task)… */
  withAccount: MailContent;
  /** …and what an address without one gets (a link to sign-up). */
  withoutAccount: MailContent;
  /** Left out when the address turned assignment mail off. */
  honoursAssignedOptOut: boolean;
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
  | { kind: 'insert'; task: NewTask; creator: Creator; labels?: Label[] | undefined }
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
   * version, or (insert) when the creator may not create tasks on the board.
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

const snake = (name: string) => name.replaceAll(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const COLUMNS = TASK_COLUMNS.map(snake).join(', ');
const CHANGEABLE = new Set<string>([
  'workTitle', 'taskTitle', 'assigneeEmail', 'deadline', 'priority', 'status', 'description', 'boardId', 'updatedAt',
  'checklistDone', 'checklistTotal', 'repeatEvery', 'repeatUnit', 'columnId', 'position',
]);

const mailJson = (mails: readonly PlannedMail[]) =>
  JSON.stringify(
    mails.map((m) => ({
      id: m.id,
      kind: m.kind,
      to: m.to,
      headers: JSON.stringify(m.headers),
      subject: m.withAccount.subject,
      text: m.withAccount.text,
      html: m.withAccount.html,
      signupSubject: m.withoutAccount.subject,
      signupText: m.withoutAccount.text,
      signupHtml: m.withoutAccount.html,
      honoursAssigned: m.honoursAssignedOptOut,
    })),
  );
/** The fields of `eventRow`, in the order of EVENT_INSERT_SQL's columns. */
const EVENT_FIELDS = ['type', 'subjectId', 'boardId', 'audience', 'fromBoardId', 'fromAudience', 'payload', 'createdAt'] as const satisfies readonly (keyof ReturnType<typeof eventRow>)[];
const eventJson = (events: readonly NewEvent[]) => JSON.stringify(events.map(eventRow));

/**
 * The mails that survive the recipients' settings, numbered (the cap admits the first ones),
 * from the JSON array of `mailJson`: `rows` is the dialect's reader of that array, `field(name)`
 * one field of its element.
 */
const wantedMails = (rows: string, field: (name: string) => string) => `
  select ${['id', 'kind', 'to', 'headers', 'subject', 'text', 'html', 'signupSubject', 'signupText', 'signupHtml'].map((f) => `${field(f)} as "${f}"`).join(', ')},
    row_number() over () as n
  from ${rows}
  where (not (${field('honoursAssigned')})
     or coalesce((select s.notify_assigned from mail_settings s where s.email = ${field('to')}), 1) = 1)`;
const OUTBOX_INSERT = `insert into outbox (id, kind, to_email, subject, text_body, html_body, headers, dedupe_key, status, attempts,
    run_at, locked_by, locked_until, last_error, created_at, sent_at, caused_by)`;
/** The outbox row of a wanted mail `w`: the content for an address with an account, or the sign-up one. */
const hasAccount = 'exists (select 1 from users u where u.email = w."to")';
const outboxValues = (now: string, sender: string) => `w."id", w."kind", w."to",
    case when ${hasAccount} then w."subject" else w."signupSubject" end,
    case when ${hasAccount} then w."text" else w."signupText" end,
    case when ${hasAccount} then w."html" else w."signupHtml" end,
    w."headers", null, 'pending', 0, ${now}, null, null, null, ${now}, null, ${sender}`;

/**
 * PostgreSQL: the whole write as ONE statement of data-modifying CTEs, which is its own
 * transaction: the task row (insert, or update/delete/lock at the expected version), then the
 * comment, activity and outbox rows, then the events (after the event-order lock) and the NOTIFY.
 * Every part reads `task`, so a row that is not at the expected version writes nothing at all.
 * The parts that read another part's output run after it, which orders the locks: task row,
 * then the sender's mail lock (mail_quota_used), then the event-order lock, the same order in
 * every write, so writes cannot deadlock on them.
 */
function postgresStatement(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined): CompiledQuery {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const ctes: string[] = [];
  const after: string[] = [];
  if (target.kind === 'insert') {
    const row = newTaskRow(target.task);
    const values = TASK_COLUMNS.map((c) => p(row[c]));
    // Only a creator with an editing role on the board inserts (task-visibility.ts); the role
    // read here also tells a refusal's 404 (not a member) from its 403 (a viewer).
    ctes.push(`rights as (select role from board_members where board_id = ${p(target.task.boardId)} and user_id = ${p(target.task.createdBy)})`);
    ctes.push(`task as (insert into tasks (${COLUMNS}, next_reminder_at) select ${values.join(', ')}, ${p(parts.nextReminderAt ?? null)}
      where exists (select 1 from rights where role in (${EDITOR_ROLES_SQL})) returning ${COLUMNS})`);
  } else {
    const at = `id = ${p(target.before._id)} and version = ${p(target.before.version)}`;
    if (target.kind === 'update') {
      const sets = Object.entries(target.changes)
        .filter(([column]) => CHANGEABLE.has(column))
        .map(([column, value]) => `${snake(column)} = ${p(value)}`);
      if (parts.nextReminderAt !== undefined) sets.push(`next_reminder_at = ${p(parts.nextReminderAt)}`);
      ctes.push(`task as (update tasks set ${sets.join(', ')}, version = version + 1 where ${at} returning ${COLUMNS})`);
    } else if (target.kind === 'delete') {
      ctes.push(`task as (delete from tasks where ${at} returning ${COLUMNS})`);
    } else {
      ctes.push(`task as (select ${COLUMNS} from tasks where ${at} for update)`);
    }
  }
  const hit = 'exists (select 1 from task)';
  if ((target.kind === 'insert' || target.kind === 'update') && target.labels !== undefined) {
    // The task's labels become exactly these: the others' rows go, the missing ones are added.
    // A label deleted since it was checked fails the foreign key, and with it the whole statement.
    const ids = p(target.labels.map((l) => l._id));
    if (target.kind === 'update') {
      ctes.push(`unlabelled as (delete from task_labels where task_id in (select id from task) and not (label_id = any(${ids}::text[])) returning 1)`);
      after.push('unlabelled');
    }
    ctes.push(`labelled as (insert into task_labels (task_id, label_id) select task.id, l.id from task cross join unnest(${ids}::text[]) as l(id)
      on conflict do nothing returning 1)`);
    after.push('labelled');
  }
  const comment = parts.comment;
  if (comment !== undefined) {
    if ('insert' in comment) {
      const c = comment.insert;
      const values = [c.id, c.taskId, c.authorId, c.authorName, c.authorEmail, c.body, c.mentions ?? '[]', c.createdAt, c.updatedAt];
      ctes.push(`comment as (insert into comments (id, task_id, author_id, author_name, author_email, body, mentions, created_at, updated_at)
        select ${values.map(p).join(', ')} where ${hit} returning 1)`);
    } else if ('update' in comment) {
      const c = comment.update;
      ctes.push(`comment as (update comments set body = ${p(c.body)}, mentions = ${p(c.mentions)}, updated_at = ${p(c.updatedAt)}
        where id = ${p(c.id)} and ${hit} returning 1)`);
    } else {
      ctes.push(`comment as (delete from comments where id = ${p(comment.delete.id)} and ${hit} returning 1)`);
    }
    after.push('comment');
  }
  if (parts.activity.length > 0) {
    ctes.push(`activity as (insert into task_activity (id, task_id, type, actor_id, actor_name, actor_email, at, changes)
      select a."id", a."taskId", a."type", a."actorId", a."actorName", a."actorEmail", a."at", a."changes"
      from json_to_recordset(${p(JSON.stringify(parts.activity))}::json)
        as a("id" text, "taskId" text, "type" text, "actorId" text, "actorName" text, "actorEmail" text, "at" text, "changes" text)
      where ${hit} returning 1)`);
    after.push('activity');
  }
  let held = '0';
  if (parts.mails.length > 0 && cap !== undefined) {
    const rows = `json_to_recordset(${p(mailJson(parts.mails))}::json) as m("id" text, "kind" text, "to" text, "headers" text, "subject" text,
      "text" text, "html" text, "signupSubject" text, "signupText" text, "signupHtml" text, "honoursAssigned" boolean)`;
    ctes.push(`wanted as (${wantedMails(rows, (f) => `m."${f}"`)} and ${hit})`);
    const sender = p(cap.sender);
    ctes.push(`quota as (select mail_quota_used(${sender}, ${p(cap.since)}) as used where exists (select 1 from wanted))`);
    ctes.push(`mail as (${OUTBOX_INSERT}
      select ${outboxValues(p(cap.now), sender)}
      from wanted w cross join quota q
      where w.n <= ${p(cap.limit)} - q.used returning 1)`);
    after.push('mail');
    held = '(select count(*) from wanted) - (select count(*) from mail)';
  }
  let pushes = '0';
  let noticeEvents: string | undefined;
  if (parts.notifications.length > 0) {
    const notes = notificationCtes(parts.notifications, p, hit);
    ctes.push(...notes.ctes);
    after.push(...notes.after);
    pushes = notes.pushes;
    noticeEvents = notes.events;
  }
  let webhooks = '0';
  const hookJson = webhookEventJson(parts.events, newId);
  if (hookJson !== undefined) {
    const hooks = webhookCtes(hookJson, p, hit);
    ctes.push(...hooks.ctes);
    webhooks = hooks.count;
  }
  let notified = '0';
  if (parts.events.length > 0 || noticeEvents !== undefined) {
    const first = after.map((name) => ` and (select count(*) from ${name}) >= 0`).join('');
    ctes.push(`ordered as (select ${EVENT_ORDER_LOCK_SQL} from task where true${first})`);
    const inserted: string[] = [];
    if (parts.events.length > 0) {
      ctes.push(`event as (${EVENT_INSERT_SQL}
        select ${EVENT_FIELDS.map((f) => `e."${f}"`).join(', ')}
        from ordered, json_to_recordset(${p(eventJson(parts.events))}::json) as e(${EVENT_FIELDS.map((f) => `"${f}" text`).join(', ')})
        returning id)`);
      inserted.push('select id from event');
    }
    if (noticeEvents !== undefined) {
      // After the task's own events (the lock is held; ids are drawn in this order).
      const wait = parts.events.length > 0 ? ' where (select count(*) from event) >= 0' : '';
      ctes.push(`notice_event as (${EVENT_INSERT_SQL} select n.* from ordered, (${noticeEvents}) n${wait} returning id)`);
      inserted.push('select id from notice_event');
    }
    ctes.push(`notified as (select pg_notify(${EVENT_CHANNEL_SQL}, max(id)::text) from (${inserted.join(' union all ')}) e having count(*) > 0)`);
    notified = '(select count(*) from notified)';
  }
  // An insert answers one row even when refused: its columns null and the creator's role.
  const from = target.kind === 'insert' ? '(select 1 as one) one left join task on true' : 'task';
  const role = target.kind === 'insert' ? ', (select role from rights) as board_role' : '';
  const text = `with ${ctes.join(',\n')}\nselect ${COLUMNS}, ${held} as mails_held, ${pushes} as pushes, ${webhooks} as webhooks, ${notified} as notified${role} from ${from}`;
  return CompiledQuery.raw(text, params);
}

/**
 * The writes of a task change or a comment change. PostgreSQL: one statement (see
 * postgresStatement), on the pool (`events.statement`) or inside `events.transaction`. SQLite: the same rows through
 * the repositories, one statement each, inside the caller's transaction (SQLite has one writer
 * at a time, and a statement there costs no network trip).
 */
export function createTaskWriteStatements(
  dialect: Dialect,
  repos: {
    tasks: TasksRepository;
    activity: ActivityRepository;
    comments: CommentsRepository;
    outbox: OutboxRepository;
    labels: LabelsRepository;
    notifications: NotificationsRepository;
    webhooks: WebhooksRepository;
  },
) {
  const creatorOf = (target: WriteTarget): Creator =>
    target.kind === 'insert' ? target.creator : { fullName: target.before.assignor, email: target.before.assignorEmail };

  async function postgres(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, ex: EventTransaction): Promise<WriteResult> {
    // One row, read as an object (CamelCasePlugin names its fields like TASK_COLUMNS).
    const { rows } = await ex.executeQuery<Record<string, unknown>>(postgresStatement(target, parts, cap));
    const row = rows[0];
    if (row === undefined) return { task: undefined, mailsHeld: 0, pushes: 0, webhooks: 0 };
    const boardRole = target.kind === 'insert' ? { boardRole: (row.boardRole as string | null | undefined) ?? null } : {};
    if (row.id === null) return { task: undefined, mailsHeld: 0, pushes: 0, webhooks: 0, ...boardRole };
    const creator = creatorOf(target);
    // The statement's `returning` lists TASK_COLUMNS, so these are the task row's values in that order.
    const values = TASK_COLUMNS.map((column) => row[column]) as unknown as TaskColumnValues;
    const labels = (target.kind === 'insert' || target.kind === 'update' ? target.labels : undefined) ?? (target.kind === 'insert' ? [] : target.before.labels);
    const task = toTaskJson([...values, creator.fullName, creator.email], labels);
    return { task, mailsHeld: Number(row.mailsHeld), pushes: Number(row.pushes), webhooks: Number(row.webhooks), ...boardRole };
  }

  async function sqlite(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, trx: EventTransaction): Promise<WriteResult> {
    let task: Task | undefined;
    let boardRole: { boardRole?: string | null } = {};
    if (target.kind === 'insert') {
      const role = (await repos.tasks.boardRole(target.task.boardId, { userId: target.task.createdBy, email: '' }, trx)) ?? null;
      boardRole = { boardRole: role };
      if (!canEditTasks(role)) return { task: undefined, mailsHeld: 0, pushes: 0, webhooks: 0, ...boardRole };
      task = await repos.tasks.insert(target.task, target.creator, trx);
    }
    else if (target.kind === 'update') task = await repos.tasks.update(target.before, target.changes, trx);
    else if (target.kind === 'delete') task = (await repos.tasks.delete(target.before._id, target.before.version, trx)) ? target.before : undefined;
    else task = (await repos.tasks.findById(target.before._id, trx))?.version === target.before.version ? target.before : undefined;
    if (task === undefined) return { task, mailsHeld: 0, pushes: 0, webhooks: 0 };
    if ((target.kind === 'insert' || target.kind === 'update') && target.labels !== undefined) {
      await repos.labels.setOfTask(task._id, target.labels.map((l) => l._id), trx);
      task = { ...task, labels: target.labels };
    }
    if (parts.nextReminderAt !== undefined) await repos.outbox.setNextReminder(task._id, parts.nextReminderAt, trx);
    const comment = parts.comment;
    if (comment !== undefined) {
      if ('insert' in comment) await repos.comments.insert(comment.insert, trx);
      else if ('update' in comment) {
        const { id, body, mentions, updatedAt } = comment.update;
        await repos.comments.updateBody(id, body, mentions, updatedAt, trx);
      }
      else await repos.comments.delete(comment.delete.id, trx);
    }
    await repos.activity.insert(parts.activity, trx);
    const mailsHeld = parts.mails.length > 0 && cap !== undefined ? await sqliteMails(parts.mails, cap, trx) : 0;
    const notes = await repos.notifications.store(parts.notifications, trx);
    const hookJson = webhookEventJson(parts.events, newId);
    const webhooks = hookJson === undefined ? 0 : await repos.webhooks.storeDeliveries(hookJson, trx);
    for (const event of [...parts.events, ...notes.events]) await appendEvent(trx, event);
    return { task, mailsHeld, pushes: notes.pushes, webhooks, ...boardRole };
  }

  /** The SQLite form of the mail CTEs: count what is wanted and what the cap allows, then write. */
  async function sqliteMails(mails: readonly PlannedMail[], cap: MailCap, trx: Executor): Promise<number> {
    const json = mailJson(mails);
    const wanted = wantedMails('json_each(?) j', (f) => `j.value ->> '$.${f}'`);
    const counted = await trx.executeQuery<{ wanted: number; used: number }>(
      CompiledQuery.raw(
        `with wanted as (${wanted}) select (select count(*) from wanted) as wanted,
          (select count(*) from outbox where caused_by = ? and created_at > ?) as used`,
        [json, cap.sender, cap.since],
      ),
    );
    const { wanted: wantedCount = 0, used = 0 } = counted.rows[0] ?? {};
    const room = Math.max(0, cap.limit - used);
    if (wantedCount > 0 && room > 0) {
      await trx.executeQuery(
        CompiledQuery.raw(`with wanted as (${wanted}) ${OUTBOX_INSERT} select ${outboxValues('?', '?')} from wanted w where w.n <= ?`, [
          json,
          cap.now,
          cap.now,
          cap.sender,
          room,
        ]),
      );
    }
    return Math.max(0, wantedCount - room);
  }

  return {
    /**
     * Writes `target` and `parts` together. PostgreSQL: one statement, on `ex` (the pool from
     * `events.statement`, its own transaction; or `events.transaction`'s). SQLite: `ex` is
     * `events.transaction`'s transaction. Either way the streams are woken after the commit.
     */
    write(target: WriteTarget, parts: WriteParts, cap: MailCap | undefined, ex: EventTransaction): Promise<WriteResult> {
      return dialect === 'postgres' ? postgres(target, parts, cap, ex) : sqlite(target, parts, cap, ex);
    },
  };
}
