import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import {
  NOTIFICATION_POLICY,
  type Notification,
  type NotificationChannel,
  type NotificationType,
  type PerType,
  type PushPayload,
} from '#shared/schemas/notifications.ts';
import type { Dialect } from '../db/connect.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB, NotificationsTable } from '../db/schema.ts';
import type { NewEvent } from './events-repository.ts';
import { seenByText } from './task-visibility.ts';

/**
 * A notification a change causes, planned before anything is written (services/notifications.ts
 * words it). It is stored only for an account with the address `to` that has not turned its type
 * off in the app, and (when it is about a task) only if that person sees the task; it is pushed
 * to each of that account's push subscriptions unless the type is off for push.
 */
export interface PlannedNotification {
  id: string;
  type: NotificationType;
  /** The recipient's lower-cased e-mail. */
  to: string;
  text: string;
  task: { _id: string; taskTitle: string } | null;
  /**
   * `board_added`: the board. A notification about a task names the task's board as the write
   * leaves it (after a move: the board it moves to); the repository reads it when it stores the
   * row, so a planner of a task's notification may leave it null.
   */
  board: { _id: string; name: string } | null;
  by: { fullName: string; email: string } | null;
  at: string;
  push: StoredPush;
}

/** What a notification is about: enough to say it in any language (services/notifications.ts). */
export interface NotificationAbout {
  type: NotificationType;
  by: { fullName: string } | null;
  task: { taskTitle: string } | null;
  board: { name: string } | null;
}

/**
 * A push as the outbox keeps it: the payload the device gets, and what the notification is about,
 * from which the sender writes its heading and text in the language of the subscription's account
 * (server/push/push-sender.ts) before it sends the payload alone.
 */
export interface StoredPush extends PushPayload {
  about?: NotificationAbout;
}

/** What storing planned notifications did: the `notification.created` events to append last, and how many pushes it queued. */
export interface StoredNotifications {
  events: NewEvent[];
  pushes: number;
}

/** The Notification JSON of a planned one (unread). */
export const notificationJson = (n: PlannedNotification): Notification => ({
  _id: n.id,
  type: n.type,
  text: n.text,
  task: n.task,
  board: n.board,
  by: n.by,
  at: n.at,
  readAt: null,
});

/** The `notification.created` event of a stored notification: the person's streams only. */
export const createdEvent = (n: PlannedNotification, unreadCount: number): NewEvent => ({
  type: 'notification.created',
  subjectId: n.id,
  boardId: null,
  audience: [n.to],
  data: { notification: notificationJson(n), unreadCount },
  at: n.at,
});

/** The fields of a planned notification as the SQL reads them from a JSON array, in this order. */
export const NOTIFICATION_PLAN_FIELDS = ['id', 'type', 'to', 'text', 'taskId', 'taskTitle', 'boardId', 'boardName', 'byName', 'byEmail', 'at', 'push', 'audience'] as const;
export type PlanField = (typeof NOTIFICATION_PLAN_FIELDS)[number];

/** The planned notifications as one JSON array (one parameter, whatever their number). */
export const planJson = (planned: readonly PlannedNotification[]) =>
  JSON.stringify(
    planned.map((n) => ({
      id: n.id,
      type: n.type,
      to: n.to,
      text: n.text,
      taskId: n.task?._id ?? null,
      taskTitle: n.task?.taskTitle ?? null,
      boardId: n.board?._id ?? null,
      boardName: n.board?.name ?? null,
      byName: n.by?.fullName ?? null,
      byEmail: n.by?.email ?? null,
      at: n.at,
      // The push payload and the event's audience, as the outbox and the events table store them (JSON text).
      push: JSON.stringify(n.push),
      audience: JSON.stringify([n.to]),
    })),
  );

const NOTIFICATION_INSERT = `insert into notifications (id, user_id, type, text, task_id, task_title, board_id, board_name, by_name, by_email, created_at, read_at)`;
/** A planned row `i` (its fields `f(name)`, the account's id `i.user_id`) as the values of NOTIFICATION_INSERT. */
const notificationValues = (f: (name: PlanField) => string) =>
  `${f('id')}, i.user_id, ${f('type')}, ${f('text')}, ${f('taskId')}, ${f('taskTitle')}, ${f('boardId')}, ${f('boardName')}, ${f('byName')}, ${f('byEmail')}, ${f('at')}, null`;
/** The type is not turned off on `channel` by the account `i.user_id`. */
const notMuted = (f: (name: PlanField) => string, channel: NotificationChannel) =>
  `not exists (select 1 from notification_mutes m where m.user_id = i.user_id and m.type = ${f('type')} and m.channel = '${channel}')`;

const PUSH_INSERT = `insert into outbox (id, kind, to_email, subject, text_body, html_body, headers, dedupe_key, status, attempts,
    run_at, locked_by, locked_until, last_error, created_at, sent_at, caused_by, push_subscription_id)`;
/**
 * The planned rows (read by `f`) whose recipient has an account (`u`), with the board a task's
 * notification names: the task's board as `task` (task rows, `t`) has it, and only for a
 * recipient who sees that task there. `head` + the FROM item of the planned rows + `tail`.
 */
export const planSelect = (f: (name: PlanField) => string, task: string, where: string) => {
  const fields = NOTIFICATION_PLAN_FIELDS.filter((name) => name !== 'boardId' && name !== 'boardName').map((name) => `${f(name)} as "${name}"`);
  return {
    head: `select ${fields.join(', ')},
      case when t.id is null then ${f('boardId')} else b.id end as "boardId",
      case when t.id is null then ${f('boardName')} else b.name end as "boardName",
      u.id as user_id
    from`,
    tail: `join users u on u.email = ${f('to')}
    left join ${task} t on t.id = ${f('taskId')} left join boards b on b.id = t.board_id
    where ${where} and (${f('taskId')} is null or (t.id is not null and ${seenByText(f('to'), 't')}))`,
  };
};

const pushValues = (f: (name: PlanField) => string) => `${f('id')} || '-' || s.id, 'push', ${f('to')}, ${f('type')}, ${f('push')}, '', '{}',
    'push:' || ${f('id')} || ':' || s.id, 'pending', 0, ${f('at')}, null, null, null, ${f('at')}, null, null, s.id`;

const LIST_COLUMNS = ['id', 'type', 'text', 'taskId', 'taskTitle', 'boardId', 'boardName', 'byName', 'byEmail', 'createdAt', 'readAt'] as const;
type ListRow = Pick<Selectable<NotificationsTable>, (typeof LIST_COLUMNS)[number]>;
const toJson = (row: ListRow): Notification => ({
  _id: row.id,
  type: row.type,
  text: row.text,
  task: row.taskId === null ? null : { _id: row.taskId, taskTitle: row.taskTitle ?? '' },
  board: row.boardId === null ? null : { _id: row.boardId, name: row.boardName ?? '' },
  by: row.byEmail === null ? null : { fullName: row.byName ?? '', email: row.byEmail },
  at: row.createdAt,
  readAt: row.readAt,
});

/** A position in a person's notifications, newest first: (created_at, id). */
export interface NotificationPosition {
  createdAt: string;
  id: string;
}

/**
 * The in-app inbox: one table, paged newest first by (created_at, id) on the index
 * (user_id, created_at desc, id desc); the unread count is a read of the partial index on the
 * unread rows. Notifications caused by a change are written with it: by a task write's
 * notification part (write-parts.ts), or by `store` in a transaction (the reminder scan and
 * board additions).
 */
export function createNotificationsRepository(db: Kysely<DB>, dialect: Dialect) {
  /** The planned rows as a FROM item `i` and its fields, in this dialect. */
  const planRows = (json: string): { from: RawBuilder<unknown>; f: (name: PlanField) => string } =>
    dialect === 'postgres'
      ? { from: sql`json_to_recordset(${json}::json) as i(${sql.raw(NOTIFICATION_PLAN_FIELDS.map((name) => `"${name}" text`).join(', '))})`, f: (name) => `i."${name}"` }
      : { from: sql`json_each(${json}) j`, f: (name) => `(j.value ->> '$.${name}')` };

  const unreadQuery = (userId: string, ex: Executor = db) =>
    ex
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('userId', '=', userId)
      .where('readAt', 'is', null);
  const listQuery = (userId: string, options: { limit: number; unread: boolean; after?: NotificationPosition | undefined }, ex: Executor = db) => {
    let query = ex.selectFrom('notifications').select(LIST_COLUMNS).where('userId', '=', userId);
    if (options.unread) query = query.where('readAt', 'is', null);
    const after = options.after;
    if (after !== undefined) query = query.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(after.createdAt, after.id)));
    return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(options.limit);
  };
  const unreadCount = async (userId: string, ex: Executor = db): Promise<number> => {
    const row = await unreadQuery(userId, ex).executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  return {
    unreadCount,

    /**
     * Stores planned notifications in the caller's transaction (`ex`), with their pushes (the
     * per-person cap is the hourly sweep's: `trimToCap`), and answers the `notification.created`
     * events for the caller to append as its last statements. A notification about a task is
     * stored only for someone who sees the task as written in this transaction. Nothing planned:
     * no statement at all.
     */
    async store(planned: readonly PlannedNotification[], ex: Executor): Promise<StoredNotifications> {
      if (planned.length === 0) return { events: [], pushes: 0 };
      const { from, f } = planRows(planJson(planned));
      const select = planSelect(f, 'tasks', 'true');
      const plan = sql`${sql.raw(select.head)} ${from} ${sql.raw(select.tail)}`;
      const g = (name: PlanField) => `i."${name}"`;
      const stored = await sql<{ id: string; userId: string; boardId: string | null; boardName: string | null }>`
        ${sql.raw(NOTIFICATION_INSERT)} select ${sql.raw(notificationValues(g))} from (${plan}) i where ${sql.raw(notMuted(g, 'app'))}
        returning id, user_id, board_id, board_name`.execute(ex);
      const pushed = await sql`${sql.raw(PUSH_INSERT)} select ${sql.raw(pushValues(g))}
        from (${plan}) i join push_subscriptions s on s.user_id = i.user_id where ${sql.raw(notMuted(g, 'push'))}`.execute(ex);
      const users = [...new Set(stored.rows.map((row) => row.userId))];
      const counts = new Map<string, number>();
      for (const userId of users) counts.set(userId, await unreadCount(userId, ex));
      const byId = new Map(planned.map((n) => [n.id, n]));
      const events = stored.rows.flatMap((row) => {
        const n = byId.get(row.id);
        if (n === undefined) return [];
        const board = row.boardId === null ? null : { _id: row.boardId, name: row.boardName ?? '' };
        return [createdEvent({ ...n, board }, counts.get(row.userId) ?? 0)];
      });
      return { events, pushes: Number(pushed.numAffectedRows ?? 0) };
    },

    /** At most `limit` of a person's notifications, newest first, strictly after `after`. */
    async list(userId: string, options: { limit: number; unread: boolean; after?: NotificationPosition | undefined }, ex: Executor = db) {
      const rows = await listQuery(userId, options, ex).execute();
      return rows.map(toJson);
    },

    /** The inbox's two reads, compiled, for tests that check they are served by the indexes. */
    queries: (userId: string) => ({
      unreadCount: unreadQuery(userId).compile(),
      firstPage: listQuery(userId, { limit: 20, unread: false }).compile(),
      unreadPage: listQuery(userId, { limit: 20, unread: true }).compile(),
    }),

    /** Marks the person's unread notifications read (`ids`, or all of them): the ids that changed. */
    async markRead(userId: string, which: { ids: readonly string[] } | { all: true }, at: string, ex: Executor = db): Promise<string[]> {
      let query = ex.updateTable('notifications').set({ readAt: at }).where('userId', '=', userId).where('readAt', 'is', null);
      if ('ids' in which) query = query.where('id', 'in', which.ids);
      const rows = await query.returning('id').execute();
      return rows.map((row) => row.id);
    },

    /** The types a person turned off, per channel. */
    async mutes(userId: string, ex: Executor = db): Promise<{ type: NotificationType; channel: NotificationChannel }[]> {
      return ex.selectFrom('notificationMutes').select(['type', 'channel']).where('userId', '=', userId).execute();
    },

    /** Turns types on (deletes their mute rows) and off (adds them) on one channel. */
    async setMutes(userId: string, channel: NotificationChannel, changes: Partial<PerType>, ex: Executor = db): Promise<void> {
      const entries = Object.entries(changes) as [NotificationType, boolean][];
      const off = entries.filter(([, on]) => !on).map(([type]) => type);
      const on = entries.filter(([, wanted]) => wanted).map(([type]) => type);
      if (off.length > 0) {
        await ex
          .insertInto('notificationMutes')
          .values(off.map((type) => ({ userId, type, channel })))
          .onConflict((oc) => oc.columns(['userId', 'type', 'channel']).doNothing())
          .execute();
      }
      if (on.length > 0) {
        await ex.deleteFrom('notificationMutes').where('userId', '=', userId).where('channel', '=', channel).where('type', 'in', on).execute();
      }
    },

    /**
     * Deleting an account (the user row stays as a nameplate, so its foreign keys do not cascade):
     * its notifications, its switches and its devices' push subscriptions go.
     */
    async deleteOfAccount(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('notifications').where('userId', '=', userId).execute();
      await ex.deleteFrom('notificationMutes').where('userId', '=', userId).execute();
      await ex.deleteFrom('pushSubscriptions').where('userId', '=', userId).execute();
    },

    /** Housekeeping: deletes the notifications made before `before`. */
    async deleteBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('notifications').where('createdAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Deletes each person's notifications past their newest NOTIFICATION_POLICY.perUser, for the
     * people notified at or after `since` (found by the `created_at` index, so a sweep does not
     * scan every account). One statement per person: a walk down (user_id, created_at desc, id
     * desc) to the first row past the cap, then that row and older ones by the same index. (One
     * statement for all of them let PostgreSQL's planner, which cannot know how few people were
     * notified lately, read the whole table.) Idempotent.
     */
    async trimToCap(since: string, ex: Executor = db): Promise<number> {
      const people = await ex.selectFrom('notifications').select('userId').distinct().where('createdAt', '>=', since).execute();
      let deleted = 0;
      for (const { userId } of people) {
        const result = await sql`delete from notifications where user_id = ${userId} and (created_at, id) <= (
            select o.created_at, o.id from notifications o where o.user_id = ${userId}
            order by o.created_at desc, o.id desc limit 1 offset ${NOTIFICATION_POLICY.perUser})`.execute(ex);
        deleted += Number(result.numAffectedRows ?? 0);
      }
      return deleted;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
