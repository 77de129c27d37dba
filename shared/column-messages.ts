import type { Checked } from './validation.ts';

/** A board's columns: their limits, and the answers of the columns API and of moves, shown as-is by the web app. */
export const COLUMN_POLICY = {
  maxPerBoard: 20,
  nameMin: 1,
  nameMax: 40,
  wipMin: 1,
  wipMax: 999,
} as const;

export const COLUMN_MESSAGES = {
  columnCreated: 'The column was added.',
  columnSaved: 'The column was saved.',
  columnNotFound: 'There is no such column on this board.',
  columnExists: 'This board already has a column with that name.',
  tooManyColumns: `A board can have at most ${COLUMN_POLICY.maxPerBoard} columns.`,
  lastColumn: 'A board keeps at least one "to do" and one "done" column.',
  notEmpty: 'The column holds tasks: say where they go (moveTo) first.',
  categoryNotEmpty: "A column's category changes only while it is empty.",
  moveToSelf: 'The tasks cannot move into the column being deleted.',
  moveToCategory: 'The tasks can only move into a column of the same category ("to do" or "done"). Move them one by one to complete or reopen them.',
  columnsForbidden: 'Only an admin of this board can change its columns.',
  name: `A column name has ${COLUMN_POLICY.nameMin} to ${COLUMN_POLICY.nameMax} characters.`,
  wipLimit: `A WIP limit is empty or a whole number from ${COLUMN_POLICY.wipMin} to ${COLUMN_POLICY.wipMax}.`,
  afterId: 'afterId must be a column of this board.',
  stalePosition: 'That spot is gone: the task it was to follow is no longer in that column. Reload the column and try again.',
  taskMoved: 'The task was moved.',
  /** The warning of a write that leaves a column over its WIP limit. */
  overLimit: (name: string, count: number, limit: number) => `"${name}" now holds ${count} tasks, over its WIP limit of ${limit}.`,
} as const;

/**
 * A column's name: trimmed, 1 to 40 characters. Here rather than in validation.ts, which every
 * form (the sign-in page's too) loads: the column texts above would come with it.
 */
export function checkColumnName(raw: string): Checked<string> {
  const name = raw.trim();
  return name.length < COLUMN_POLICY.nameMin || name.length > COLUMN_POLICY.nameMax ? { ok: false, message: COLUMN_MESSAGES.name } : { ok: true, value: name };
}
