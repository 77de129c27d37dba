import type { Kysely } from 'kysely';

/**
 * Task details: labels, checklists, repeating tasks and mentions.
 *
 * - `labels`: a board's labels. `name_key` is the name lower-cased by the server (Unicode-aware,
 *   which SQLite's lower() is not), so "unique per board ignoring case" is one unique index on
 *   both databases. A board's deletion takes its labels with it.
 * - `task_labels`: which labels a task carries; deleting a task or a label removes its rows.
 *   The primary key (task_id, label_id) reads a task's labels; (label_id, task_id) serves the
 *   `label=` filter and a label's deletion.
 * - `checklist_items`: a task's checklist, ordered by `position` (0-based, dense: a move
 *   renumbers the items between the old and the new place). `done` is 0/1.
 * - `tasks.checklist_done` / `checklist_total`: the checklist's counts kept on the task row, so
 *   a card's "2/5" costs no read of the items. Every checklist change updates the task row anyway
 *   (it bumps the version), and sets them in the same statement.
 * - `tasks.repeat_every` / `repeat_unit`: a repeating task's interval (both null: no repeat).
 * - `comments.mentions`: JSON text, the addresses a comment mentions that could see the task
 *   when it was written ('[]' when none).
 * - `mail_settings.notify_mentions`: whether the address wants "you were mentioned" mail.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('labels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('labels_board_name_key_idx').on('labels').columns(['board_id', 'name_key']).unique().execute();

  await db.schema
    .createTable('task_labels')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('task_labels_pkey', ['task_id', 'label_id'])
    .execute();
  await db.schema.createIndex('task_labels_label_task_idx').on('task_labels').columns(['label_id', 'task_id']).execute();

  await db.schema
    .createTable('checklist_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checklist_items_task_position_idx').on('checklist_items').columns(['task_id', 'position']).execute();

  await db.schema.alterTable('tasks').addColumn('checklist_done', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('tasks').addColumn('checklist_total', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('tasks').addColumn('repeat_every', 'integer').execute();
  await db.schema.alterTable('tasks').addColumn('repeat_unit', 'text').execute();
  await db.schema.alterTable('comments').addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('mail_settings').addColumn('notify_mentions', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_settings').dropColumn('notify_mentions').execute();
  await db.schema.alterTable('comments').dropColumn('mentions').execute();
  await db.schema.alterTable('tasks').dropColumn('repeat_unit').execute();
  await db.schema.alterTable('tasks').dropColumn('repeat_every').execute();
  await db.schema.alterTable('tasks').dropColumn('checklist_total').execute();
  await db.schema.alterTable('tasks').dropColumn('checklist_done').execute();
  await db.schema.dropTable('checklist_items').ifExists().execute();
  await db.schema.dropTable('task_labels').ifExists().execute();
  await db.schema.dropTable('labels').ifExists().execute();
}
