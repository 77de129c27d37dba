import { describeRepeat, sameRepeat } from '#shared/repeat.ts';
import { TRACKED_FIELDS, type ActivityChangeField, type ChecklistAction, type TrackedField } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { NewActivity } from '../repositories/activity-repository.ts';

/** A task write as the activity log sees it. */
export interface ActivityChange {
  kind: 'created' | 'updated' | 'deleted';
  before: Pick<Task, TrackedField | 'status' | 'labels' | 'repeat'> | undefined;
  after: (Pick<Task, TrackedField | 'status' | 'labels' | 'repeat'> & { _id: string }) | undefined;
  actor: { userId: string; email: string; fullName: string };
  now: Date;
  /** A move: the names of the board it left and of the one it is on now. */
  boards?: { from: string; to: string } | undefined;
  /** A move to another column of the same category on the same board: the two columns' names. */
  columns?: { from: string; to: string } | undefined;
}

/** A task's labels as its activity shows them: their names, comma-separated, by name; null when none. */
const labelNames = (labels: Task['labels']) => (labels.length === 0 ? null : labels.map((l) => l.name).join(', '));

/**
 * The activity entries of one task write: `created`; `updated` with `{field: {from, to}}` for
 * each tracked field that changed, `board: {from, to}` (the boards' names) for a move,
 * `column: {from, to}` (the columns' names) for a move to another column of the same category,
 * `labels: {from, to}` (labelNames) when its labels changed, and `repeat` (describeRepeat's
 * text, null for none); `completed` / `reopened` for a status change (an edit that
 * does both writes both entries, the update first). A deletion writes nothing: the log goes
 * with its task.
 */
export function activityFor(change: ActivityChange): NewActivity[] {
  const { before, after, actor } = change;
  if (after === undefined) return [];
  const entry = (type: NewActivity['type'], changes: string | null = null) => activityEntry(after._id, type, actor, change.now, changes);
  if (before === undefined) return [entry('created')];
  const entries: NewActivity[] = [];
  const changes: Partial<Record<ActivityChangeField, { from: string | null; to: string | null }>> = {};
  for (const field of TRACKED_FIELDS) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if (change.boards !== undefined) changes.board = change.boards;
  if (change.columns !== undefined) changes.column = change.columns;
  const labels = { from: labelNames(before.labels), to: labelNames(after.labels) };
  if (labels.from !== labels.to) changes.labels = labels;
  if (!sameRepeat(before.repeat, after.repeat)) changes.repeat = { from: describedRepeat(before.repeat), to: describedRepeat(after.repeat) };
  if (Object.keys(changes).length > 0) entries.push(entry('updated', JSON.stringify(changes)));
  if (before.status !== after.status) entries.push(entry(after.status === 'done' ? 'completed' : 'reopened'));
  return entries;
}

const describedRepeat = (repeat: Task['repeat']) => (repeat === null ? null : describeRepeat(repeat));

/** What a `checklist` entry says: what happened to which item (its text after the change). */
export interface ChecklistActivity {
  action: ChecklistAction;
  text: string;
}

/** One activity entry, written by `actor` at `now`; `changes`: the type's details as JSON (activity-repository.ts). */
export function activityEntry(taskId: string, type: NewActivity['type'], actor: ActivityChange['actor'], now: Date, changes: string | null = null): NewActivity {
  return { id: newId(), taskId, type, actorId: actor.userId, actorName: actor.fullName, actorEmail: actor.email, at: now.toISOString(), changes };
}

/** The `checklist` entry of one change of an item. */
export function checklistActivity(taskId: string, actor: ActivityChange['actor'], now: Date, what: ChecklistActivity): NewActivity {
  return activityEntry(taskId, 'checklist', actor, now, JSON.stringify({ action: what.action, text: what.text }));
}
