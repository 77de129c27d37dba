import { sql, type Kysely } from 'kysely';

/**
 * The outbox worker claims in two lanes: webhook deliveries (`kind = 'webhook'`) and everything
 * else (mails, pushes). One index of pending rows by `run_at` served both, so a claim of the
 * mail lane walked past every due webhook delivery to find no mail: under a backlog of
 * deliveries each claim cost time in proportion to the backlog. Each lane now has its own
 * partial index, and a claim reads only its own lane's due rows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('outbox_pending_webhooks_run_at')
    .on('outbox')
    .column('run_at')
    .where(sql<boolean>`status = 'pending' and kind = 'webhook'`)
    .execute();
  await db.schema
    .createIndex('outbox_pending_messages_run_at')
    .on('outbox')
    .column('run_at')
    .where(sql<boolean>`status = 'pending' and kind <> 'webhook'`)
    .execute();
  await db.schema.dropIndex('outbox_pending_run_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('outbox_pending_run_at').on('outbox').column('run_at').where(sql.ref('status'), '=', 'pending').execute();
  await db.schema.dropIndex('outbox_pending_messages_run_at').execute();
  await db.schema.dropIndex('outbox_pending_webhooks_run_at').execute();
}
