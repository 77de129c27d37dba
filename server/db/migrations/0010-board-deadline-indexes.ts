import type { Kysely } from 'kysely';

/**
 * Two indexes for the board's deadline order and its counts, one per person a task is visible
 * to (its creator, its assignee), next to the (person, status, created_at, id) pair of 0001:
 *
 * - (person, status, deadline, created_at desc, id desc) is the order of sort=deadline within
 *   the tasks that have a deadline, and of the undated ones (`deadline is null`: newest first),
 *   so a page of that sort reads one page per part instead of sorting every task of the person.
 * - The same entries hold status and deadline, so the counts (to do, done, overdue = open with a
 *   deadline before now) are index range counts that never visit the table.
 * - The assignee's index also holds created_by: "assigned to me by someone else" is then decided
 *   inside the index, without a table read per task one assigned to oneself.
 *
 * Both databases take the same definitions (descending key columns are plain B-tree features).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('tasks_created_by_status_deadline_idx')
    .on('tasks')
    .columns(['created_by', 'status', 'deadline', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('tasks_assignee_status_deadline_idx')
    .on('tasks')
    .columns(['assignee_email', 'status', 'deadline', 'created_at desc', 'id desc', 'created_by'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tasks_assignee_status_deadline_idx').ifExists().execute();
  await db.schema.dropIndex('tasks_created_by_status_deadline_idx').ifExists().execute();
}
