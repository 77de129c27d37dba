import type { Checked } from './validation.ts';
import { message, text, type Message } from './i18n.ts';

/** A board's columns: their limits, and the answers of the columns API and of moves, shown as-is by the web app. */
export const COLUMN_POLICY = {
  maxPerBoard: 20,
  nameMin: 1,
  nameMax: 40,
  wipMin: 1,
  wipMax: 999,
} as const;

export const COLUMN_MESSAGES = {
  columnCreated: text('The column was added.'),
  columnSaved: text('The column was saved.'),
  columnNotFound: text('There is no such column on this board.'),
  columnExists: text('This board already has a column with that name.'),
  tooManyColumns: message('A board can have at most {max} columns.', { max: COLUMN_POLICY.maxPerBoard }),
  lastColumn: text('A board keeps at least one "to do" and one "done" column.'),
  notEmpty: text('The column holds tasks: say where they go (moveTo) first.'),
  categoryNotEmpty: text("A column's category changes only while it is empty."),
  moveToSelf: text('The tasks cannot move into the column being deleted.'),
  moveToCategory: text('The tasks can only move into a column of the same category ("to do" or "done"). Move them one by one to complete or reopen them.'),
  columnsForbidden: text('Only an admin of this board can change its columns.'),
  name: message('A column name has {min} to {max} characters.', { min: COLUMN_POLICY.nameMin, max: COLUMN_POLICY.nameMax }),
  wipLimit: message('A WIP limit is empty or a whole number from {min} to {max}.', { min: COLUMN_POLICY.wipMin, max: COLUMN_POLICY.wipMax }),
  afterId: text('afterId must be a column of this board.'),
  stalePosition: text('That spot is gone: the task it was to follow is no longer in that column. Reload the column and try again.'),
  taskMoved: text('The task was moved.'),
  /** The warning of a write that leaves a column over its WIP limit. */
  overLimit: (name: string, count: number, limit: number) =>
    message('"{name}" now holds {count, plural, one {# task} other {# tasks}}, over its WIP limit of {limit}.', { name, count, limit }),
} as const;

/**
 * A column's name: trimmed, 1 to 40 characters. Here rather than in validation.ts, which every
 * form (the sign-in page's too) loads: the column texts above would come with it.
 */
export function checkColumnName(raw: string): Checked<string, Message> {
  const name = raw.trim();
  return name.length < COLUMN_POLICY.nameMin || name.length > COLUMN_POLICY.nameMax ? { ok: false, message: COLUMN_MESSAGES.name } : { ok: true, value: name };
}
