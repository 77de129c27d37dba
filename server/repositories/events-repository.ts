import pg from 'pg';
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import { prepare, slot, slotsFor, type Executor, type Prepared } from '../db/prepared.ts';
import type { DB, EventsTable } from '../db/schema.ts';

/** Event names of the live stream (`event:` line). */
export type EventType =
  | 'task.created'
  | 'task.updated'
  | 'task.deleted'
  | 'comment.created'
  | 'comment.updated'
  | 'comment.deleted'
  | 'attachment.created'
  | 'attachment.deleted'
  | 'board.added'
  | 'board.updated'
  | 'board.removed'
  | 'notification.created'
  | 'notification.read';

/**
 * Notification events are personal: no board, the notified person's e-mail as the audience
 * (`subjectId`: the notification's id, or the reader's user id for `notification.read`), so they
 * reach that person's streams only.
 *
 * Board events go to the e-mails of their audience only; `board.added` and `board.removed`
 * change which boards' task events a stream receives from then on.
 */
export const isBoardEvent = (type: EventType) => type.startsWith('board.');

/**
 * The data of a `task.deleted`, to whoever no longer sees the task (it was deleted, moved to
 * another board or given to someone else): its id, the version the change produced, and who.
 */
export const taskDeletedData = (taskId: string, version: number, by: unknown) => ({ task: { _id: taskId, version }, by });

/** One event to append to the log. */
export interface NewEvent {
  type: EventType;
  /**
   * The id of what the event is about, by `type`: the task (task and comment events), the board
   * (board events), the notification (`notification.created`), the reader (`notification.read`).
   */
  subjectId: string;
  /**
   * A task or comment event: the task's board after the change (a deletion: before it); the
   * board's active members receive it. A board event: the board it is about. Null: no board.
   */
  boardId?: string | null;
  /**
   * Lower-cased e-mails that receive the event besides the board's members: a task or comment
   * event's assignee; a board event's addressees (the only ones who receive it).
   */
  audience: readonly string[];
  /** A `task.updated` that moved the task: the board it was on before (else null or absent). */
  fromBoardId?: string | null;
  /** A `task.updated` that changed the assignee: the audience before (else null or absent). */
  fromAudience?: readonly string[] | null;
  /** The event's JSON `data` (written to the stream as is). */
  data: Readonly<Record<string, unknown>>;
  /** ISO 8601 instant from the app's clock (retention is measured against it). */
  at: string;
}

/** A stored event as the streams read it (see NewEvent for the addressing fields). */
export interface LoggedEvent {
  id: number;
  type: EventType;
  boardId: string | null;
  audience: string[];
  fromBoardId: string | null;
  fromAudience: string[] | null;
  /** JSON text of `data`. */
  payload: string;
}

/** The columns of an appended event, in the order every insert lists them. */
export function eventRow(event: NewEvent) {
  const fromAudience = event.fromAudience ?? null;
  return {
    type: event.type,
    subjectId: event.subjectId,
    boardId: event.boardId ?? null,
    audience: JSON.stringify(event.audience),
    fromBoardId: event.fromBoardId ?? null,
    fromAudience: fromAudience === null ? null : JSON.stringify(fromAudience),
    payload: JSON.stringify(event.data),
    createdAt: event.at,
  };
}
/** The column names of `eventRow`, as SQL. */
const EVENT_COLUMNS_SQL = 'type, subject_id, board_id, audience, from_board_id, from_audience, payload, created_at';
/**
 * The one INSERT into the event log (columns in `eventRow` order), followed by a SELECT or
 * VALUES of rows in that order. `appendEvent` uses it, and so does a write of ONE statement
 * (repositories/task-write-statements.ts), which takes EVENT_ORDER_LOCK_SQL before it and
 * notifies EVENT_CHANNEL_SQL after it in the same statement, as `appendEvent` does. Nothing
 * else writes to the table.
 */
export const EVENT_INSERT_SQL = `insert into events (${EVENT_COLUMNS_SQL})`;

/**
 * PostgreSQL: the lock that makes commit order id order (see appendEvent), one per schema, and
 * the LISTEN/NOTIFY channel of the schema. SQL expressions, shared by every statement that
 * appends events.
 */
export const EVENT_ORDER_LOCK_SQL = "pg_advisory_xact_lock(hashtext('taskwise.events.' || current_schema()))";
export const EVENT_CHANNEL_SQL = "'taskwise_events_' || md5(current_schema())";

const isPostgres = (ex: Executor) => ex.getExecutor().adapter instanceof PostgresAdapter;

declare const eventTransaction: unique symbol;
/**
 * A write transaction made by `fastify.events.transaction` (events/write-transaction.ts), the
 * only kind `appendEvent` accepts: that runner wakes this instance's streams after the commit,
 * which a plain `db.transaction()` would not do (the event would wait for the next poll). It is
 * an ordinary transaction everywhere else (repositories take it as an Executor).
 */
export type EventTransaction = Executor & { readonly [eventTransaction]: true };

/**
 * Appends one event to the durable log, inside the caller's write transaction (`trx`, from
 * `fastify.events.transaction`), so the event commits with the change or not at all. Call it as the last statement before commit.
 *
 * Ordering: readers resume with "id greater than the last one seen", which is only safe if ids
 * become visible in id order. A sequence alone does not give that on PostgreSQL (a transaction
 * holding a smaller id can commit after one holding a larger id). So the append first takes a
 * transaction-scoped advisory lock (one per schema) and only then draws the id: appenders queue
 * up from their append to their commit, which makes commit order = id order. The NOTIFY (the
 * new id, delivered at commit) wakes every instance's listener; streams then read the rows.
 * SQLite has a single writer (transactions begin IMMEDIATE), so commit order is id order already.
 * The cost of the lock is measured in bench/RESULTS.md and argued in
 * docs/decisions/005-event-log-commit-order-by-advisory-lock.md.
 */
let sqliteAppend: Prepared<ReturnType<typeof eventRow>, { id: string | number }> | undefined;

export async function appendEvent(trx: EventTransaction, event: NewEvent): Promise<number> {
  const values = eventRow(event);
  if (!isPostgres(trx)) {
    // Compiled once, on the first SQLite append (the SQL depends only on the dialect).
    sqliteAppend ??= prepare<typeof values, { id: string | number }>(trx.insertInto('events').values(slotsFor(Object.keys(values) as (keyof typeof values)[])).returning('id'));
    const row = (await sqliteAppend.execute(trx, values)).rows[0];
    if (row === undefined) throw new Error('appendEvent: the insert returned no id');
    return Number(row.id);
  }
  // One round trip: lock, insert, notify (the CTE chain orders them).
  const { rows } = await sql<{ id: string }>`
    with ordered as (select ${sql.raw(EVENT_ORDER_LOCK_SQL)})
    , inserted as (
      ${sql.raw(EVENT_INSERT_SQL)}
      select ${sql.join(Object.values(values))} from ordered
      returning id
    )
    select id, pg_notify(${sql.raw(EVENT_CHANNEL_SQL)}, id::text) from inserted`.execute(trx);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('appendEvent: the insert returned no id');
  return Number(id);
}

const LOGGED_COLUMNS = ['id', 'type', 'boardId', 'audience', 'fromBoardId', 'fromAudience', 'payload'] as const;
type LoggedRow = Pick<Selectable<EventsTable>, (typeof LOGGED_COLUMNS)[number]>;
const toLogged = (row: LoggedRow): LoggedEvent => ({
  id: Number(row.id),
  type: row.type as EventType,
  boardId: row.boardId,
  audience: JSON.parse(row.audience) as string[],
  fromBoardId: row.fromBoardId,
  fromAudience: row.fromAudience === null ? null : (JSON.parse(row.fromAudience) as string[]),
  payload: row.payload,
});

export function createEventsRepository(db: Kysely<DB>) {
  const latest = prepare<Record<string, never>, { max: string | number | null }>(db.selectFrom('events').select((eb) => eb.fn.max('id').as('max')));
  // Read by the instance's log reader after the commits it is woken for (events/log-reader.ts): compiled once.
  const after = prepare<{ afterId: number; limit: number }, LoggedRow>(
    db.selectFrom('events').select(LOGGED_COLUMNS).where('id', '>', slot('afterId')).orderBy('id').limit(slot('limit')),
  );
  return {
    /** Events after `afterId`, oldest first, at most `limit`. */
    async listAfter(afterId: number, limit: number, ex: Executor = db): Promise<LoggedEvent[]> {
      const { rows } = await after.execute(ex, { afterId, limit });
      return rows.map(toLogged);
    },

    /**
     * Where a new stream of `userId` starts: the log's bounds and the boards the user is an
     * active member of, read in ONE statement, so the boards are exactly those as of `max`
     * (a membership change commits with its board event, and ids commit in id order).
     */
    async startFor(userId: string, ex: Executor = db): Promise<{ min: number; max: number; boards: string[] }> {
      const rows = await ex
        .selectFrom((eb) => eb.selectFrom('events').select((s) => [s.fn.min('id').as('min'), s.fn.max('id').as('max')]).as('b'))
        .leftJoin('boardMembers as m', (join) => join.on('m.userId', '=', userId))
        .select(['b.min', 'b.max', 'm.boardId'])
        .execute();
      const first = rows[0];
      const boards = rows.flatMap((row) => (row.boardId === null ? [] : [row.boardId]));
      return { min: Number(first?.min ?? 0), max: Number(first?.max ?? 0), boards };
    },

    /** The `board.added` and `board.removed` events with ids in (`afterId`, `upTo`], oldest first. */
    async boardChangesBetween(afterId: number, upTo: number, ex: Executor = db): Promise<LoggedEvent[]> {
      const rows = await ex
        .selectFrom('events')
        .select(LOGGED_COLUMNS)
        .where('id', '>', afterId)
        .where('id', '<=', upTo)
        .where('type', 'in', ['board.added', 'board.removed'])
        .orderBy('id')
        .execute();
      return rows.map(toLogged);
    },

    /**
     * The newest event's id (0: none yet). It never goes down: pruning keeps the newest row, and
     * commit order is id order, so an unchanged answer means no event was committed since.
     */
    async latestId(ex: Executor = db): Promise<number> {
      const row = (await latest.execute(ex, {})).rows[0];
      return Number(row?.max ?? 0);
    },

    /** The smallest and largest id still in the log (both 0 when it is empty). */
    async bounds(ex: Executor = db): Promise<{ min: number; max: number }> {
      const row = await ex
        .selectFrom('events')
        .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max')])
        .executeTakeFirst();
      return { min: Number(row?.min ?? 0), max: Number(row?.max ?? 0) };
    },

    /**
     * Housekeeping: deletes the events older than `before`, always as a prefix of the log (so a
     * resume either finds every event after its id or gets a reset) and always keeping the
     * newest row (so a known id stays recognisable even after a long quiet spell).
     */
    async pruneBefore(before: string, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('events')
        .where((eb) =>
          eb(
            'id',
            '<',
            eb.fn.coalesce(
              eb.selectFrom('events').select((s) => s.fn.min('id').as('m')).where('createdAt', '>=', before),
              eb.selectFrom('events').select((s) => s.fn.max('id').as('m')),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * The LISTEN/NOTIFY channel of this schema (appendEvent notifies the same name). Channels
     * are global to a database while the tables are per schema, hence the schema in the name
     * (hashed: a channel name is at most 63 bytes).
     */
    async channel(ex: Executor = db): Promise<string> {
      const { rows } = await sql<{ name: string }>`select ${sql.raw(EVENT_CHANNEL_SQL)} as name`.execute(ex);
      const name = rows[0]?.name;
      if (name === undefined) throw new Error('No current schema');
      return name;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;

/**
 * The one listening connection of an instance (PostgreSQL): a dedicated client outside the
 * pool, since a pooled one would be handed to queries and lose its LISTEN. Calls `onNotify` for
 * every notification (with the last event id it carries) and `onLost` once when the connection errors or ends; the owner then
 * opens a new one (with back-off) and catches up from the log.
 */
export async function listen(
  url: string,
  channel: string,
  handlers: { onNotify: (upTo?: number) => void; onLost: (error: Error | undefined) => void },
): Promise<{ close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  let lost = false;
  let closing = false;
  const lose = (error: Error | undefined) => {
    if (lost || closing) return;
    lost = true;
    handlers.onLost(error);
  };
  // The payload is the commit's last event id (appendEvent and the write statements send it).
  client.on('notification', (message) => {
    handlers.onNotify(message.payload === undefined || message.payload === '' ? undefined : Number(message.payload));
  });
  client.on('error', (error) => {
    lose(error);
  });
  client.on('end', () => {
    lose(undefined);
  });
  try {
    await client.connect();
    // pg_stat_activity shows this connection by its last statement: `listen "…"`.
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (error) {
    closing = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async close() {
      closing = true;
      await client.end().catch(() => undefined);
    },
  };
}
