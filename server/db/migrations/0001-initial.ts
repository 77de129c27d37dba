import { sql, type Kysely } from 'kysely';

/**
 * Frozen in time: imports no app code and types the database as Kysely<any>.
 * Column types are chosen so both databases hand back the same JS values: text ids, ISO 8601
 * UTC text timestamps (sortable), integer counters.
 * @see https://github.com/kysely-org/kysely/blob/master/site/docs/migrations.mdx
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Newest code for an address, and the per-address cooldown/hourly counts.
  await db.schema.createIndex('otp_codes_email_purpose_created_idx').on('otp_codes').columns(['email', 'purpose', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task_title', 'text', (c) => c.notNull())
    .addColumn('assignee_email', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deadline', 'text')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal').check(sql`priority in ('normal', 'low', 'high', 'urgent')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('todo').check(sql`status in ('todo', 'done')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The board query is two index range scans merged (created by me ∪ assigned to me); status
  // and (created_at, id) in the index serve the status filter and keyset paging in order.
  await db.schema
    .createIndex('tasks_created_by_status_created_idx')
    .on('tasks')
    .columns(['created_by', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_assignee_status_created_idx')
    .on('tasks')
    .columns(['assignee_email', 'status', 'created_at', 'id'])
    .execute();

  // Failed sign-ins per e-mail, for the lock-out window; kept in the database so every
  // instance sharing it agrees.
  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_email_failed_idx').on('login_failures').columns(['email', 'failed_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_failures', 'tasks', 'sessions', 'otp_codes', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
