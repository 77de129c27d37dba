import type { Kysely } from 'kysely';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type Delivery, type Webhook, type WebhookEvent } from '#shared/schemas/webhooks.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { taskDeletedData, type NewEvent } from './events-repository.ts';

/** The outbox `kind` of a webhook delivery (one event to one webhook). */
export const WEBHOOK_KIND = 'webhook';

/** The `webhook-id` of a delivery row written with a change: fixed by its row id, the same on every retry. */
export const webhookMessageId = (rowId: string) => `msg_${rowId}`;

const WANTED = new Set<string>(WEBHOOK_EVENTS);

/**
 * The events of a write that webhooks may want, as one JSON array: `key` (fresh per delivered
 * event; a delivery's row id is `key` + the webhook's id, so one event makes at most one row per
 * webhook), `type`, `boardId` (the board whose webhooks receive it), `at`, and `body`, the JSON
 * the receiver gets: `{type, timestamp, data}` with the event's data as the live stream sends it.
 *
 * A board's webhooks hear about a task as the board's members do: a task moved to another board
 * is, to the board it left, `task.deleted` (`{task: {_id, version}, by}`), and to the board it
 * arrived on, `task.created` (the whole task), so a receiver that mirrors one board's tasks
 * neither keeps a task that left nor misses one that came.
 */
export function webhookEventJson(events: readonly NewEvent[], newKey: () => string): string | undefined {
  const deliveries = events.flatMap((e): { type: string; boardId: string; at: string; data: unknown }[] => {
    if (e.boardId == null) return [];
    if (e.type === 'task.updated' && e.fromBoardId != null && e.fromBoardId !== e.boardId) {
      const { task, by } = e.data as { task: { _id: string; version: number }; by: unknown };
      return [
        { type: 'task.deleted', boardId: e.fromBoardId, at: e.at, data: taskDeletedData(task._id, task.version, by) },
        { type: 'task.created', boardId: e.boardId, at: e.at, data: e.data },
      ];
    }
    return WANTED.has(e.type) ? [{ type: e.type, boardId: e.boardId, at: e.at, data: e.data }] : [];
  });
  if (deliveries.length === 0) return undefined;
  return JSON.stringify(
    deliveries.map((d) => ({
      key: newKey(),
      type: d.type,
      boardId: d.boardId,
      at: d.at,
      body: JSON.stringify({ type: d.type, timestamp: d.at, data: d.data }),
    })),
  );
}

const STATUS_OF: Record<string, Delivery['status']> = { pending: 'pending', sent: 'delivered', failed: 'failed' };

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  active: number;
  failingSince: string | null;
  createdAt: string;
}
const toJson = (row: WebhookRow): Webhook => ({
  _id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  active: row.active === 1,
  failingSince: row.failingSince,
  createdAt: row.createdAt,
});
const COLUMNS = ['id', 'url', 'events', 'active', 'failingSince', 'createdAt'] as const;

/** What the sender needs of a webhook. */
export interface WebhookTarget {
  id: string;
  boardId: string;
  url: string;
  secret: string;
  active: boolean;
  failingSince: string | null;
}

/**
 * A board's webhooks and their deliveries (outbox rows of kind `webhook`, read newest first
 * through the partial index (webhook_id, created_at desc, id desc)).
 */
export function createWebhooksRepository(db: Kysely<DB>) {
  return {
    async list(boardId: string, ex: Executor = db): Promise<Webhook[]> {
      const rows = await ex.selectFrom('webhooks').select(COLUMNS).where('boardId', '=', boardId).orderBy('createdAt').orderBy('id').execute();
      return rows.map(toJson);
    },

    async count(boardId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('webhooks')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
        .where('boardId', '=', boardId)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async find(boardId: string, id: string, ex: Executor = db): Promise<Webhook | undefined> {
      const row = await ex.selectFrom('webhooks').select(COLUMNS).where('boardId', '=', boardId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toJson(row);
    },

    async insert(row: { id: string; boardId: string; url: string; events: readonly string[]; secret: string; at: string }, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('webhooks')
        .values({
          id: row.id,
          boardId: row.boardId,
          url: row.url,
          events: JSON.stringify(row.events),
          secret: row.secret,
          active: 1,
          failingSince: null,
          createdAt: row.at,
          updatedAt: row.at,
        })
        .execute();
    },

    /** `active: true` also clears `failing_since` (a resumed webhook starts its failure clock again). */
    async update(
      boardId: string,
      id: string,
      changes: { url?: string; events?: readonly string[]; active?: boolean; updatedAt: string },
      ex: Executor = db,
    ): Promise<void> {
      await ex
        .updateTable('webhooks')
        .set({
          updatedAt: changes.updatedAt,
          ...(changes.url === undefined ? {} : { url: changes.url }),
          ...(changes.events === undefined ? {} : { events: JSON.stringify(changes.events) }),
          ...(changes.active === undefined ? {} : { active: changes.active ? 1 : 0 }),
          ...(changes.active === true ? { failingSince: null } : {}),
        })
        .where('boardId', '=', boardId)
        .where('id', '=', id)
        .execute();
    },

    async delete(boardId: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('webhooks').where('boardId', '=', boardId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The newest deliveries of a webhook. */
    async deliveries(webhookId: string, ex: Executor = db): Promise<Delivery[]> {
      const rows = await ex
        .selectFrom('outbox')
        .select(['id', 'subject', 'status', 'attempts', 'responseStatus', 'createdAt'])
        .where('webhookId', '=', webhookId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(WEBHOOK_LIMITS.deliveriesShown)
        .execute();
      return rows.map((r) => ({
        _id: r.id,
        type: r.subject as WebhookEvent,
        status: STATUS_OF[r.status] ?? 'pending',
        attempts: r.attempts,
        responseStatus: r.responseStatus,
        at: r.createdAt,
      }));
    },

    /** A delivery of the webhook, with what a redelivery copies. */
    async delivery(webhookId: string, id: string, ex: Executor = db) {
      return ex
        .selectFrom('outbox')
        .select(['id', 'subject', 'textBody', 'headers'])
        .where('webhookId', '=', webhookId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** A new delivery row: `webhook-id` as given (a redelivery keeps the original's). */
    async insertDelivery(row: { id: string; webhookId: string; type: string; body: string; messageId: string; at: string }, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('outbox')
        .values({
          id: row.id,
          kind: WEBHOOK_KIND,
          toEmail: '',
          subject: row.type,
          textBody: row.body,
          htmlBody: '',
          headers: JSON.stringify({ 'webhook-id': row.messageId }),
          dedupeKey: null,
          status: 'pending',
          attempts: 0,
          runAt: row.at,
          lockedBy: null,
          lockedUntil: null,
          lastError: null,
          createdAt: row.at,
          sentAt: null,
          causedBy: null,
          webhookId: row.webhookId,
        })
        .execute();
    },

    /** The webhooks `ids` that deliveries go to, by id (one missing: deleted since). */
    async targets(ids: readonly string[], ex: Executor = db): Promise<Map<string, WebhookTarget>> {
      if (ids.length === 0) return new Map();
      const rows = await ex.selectFrom('webhooks').select(['id', 'boardId', 'url', 'secret', 'active', 'failingSince']).where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [row.id, { ...row, active: row.active === 1 }]));
    },

    /** A success: the webhooks are healthy again. */
    async clearFailing(ids: readonly string[], ex: Executor = db): Promise<void> {
      if (ids.length === 0) return;
      await ex.updateTable('webhooks').set({ failingSince: null }).where('id', 'in', ids).where('failingSince', 'is not', null).execute();
    },

    /** A failure of a healthy webhook starts its failure clock. */
    async startFailing(id: string, now: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('webhooks').set({ failingSince: now }).where('id', '=', id).where('failingSince', 'is', null).execute();
    },

    /**
     * Pauses the webhook when it is active and has been failing since `cutoff` or earlier: its
     * board and URL when this call paused it (exactly one caller does, whatever runs at once).
     */
    async pauseIfFailingSince(id: string, cutoff: string, now: string, ex: Executor = db): Promise<{ boardId: string; url: string } | undefined> {
      return ex
        .updateTable('webhooks')
        .set({ active: 0, updatedAt: now })
        .where('id', '=', id)
        .where('active', '=', 1)
        .where('failingSince', '<=', cutoff)
        .returning(['boardId', 'url'])
        .executeTakeFirst();
    },

  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
