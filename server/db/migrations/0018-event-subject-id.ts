import type { Kysely } from 'kysely';

/**
 * The events table's `task_id` never held only task ids: a board event stored its board's id
 * there, `notification.created` the notification's id and `notification.read` the reader's user
 * id. It is renamed `subject_id` — the id of what the event is about, its kind given by `type`
 * (docs/decisions/114-event-subject-id.md). A rename keeps every row and id as it was.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').renameColumn('task_id', 'subject_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').renameColumn('subject_id', 'task_id').execute();
}
