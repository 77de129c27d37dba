import { TRACKED_FIELDS, type ActivityChangeField, type TrackedField } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { NewActivity } from '../repositories/activity-repository.ts';

/** A task write as the activity log sees it. */
export interface ActivityChange {
  kind: 'created' | 'updated' | 'deleted';
  before: Pick<Task, TrackedField | 'status' | 'labels'> | undefined;
  after: (Pick<Task, TrackedField | 'status' | 'labels'> & { _id: string }) | undefined;
  actor: { userId: string; email: string; fullName: string };
  now: Date;
  /** A move: the names of the board it left and of the one it is on now. */
  boards?: { from: string; to: string } | undefined;
}

/** A task's labels as its activity shows them: their names, comma-separated, by name; null when none. */
const labelNames = (labels: Task['labels']) => (labels.length === 0 ? null : labels.map((l) => l.name).join(', '));

/**
 * The activity entries of one task write: `created`; `updated` with `{field: {from, to}}` for
 * each tracked field that changed, `board: {from, to}` (the boards' names) for a move and
 * `labels: {from, to}` (labelNames) when its labels changed; `completed` / `reopened` for a status change (an edit that
 * does both writes both entries, the update first). A deletion writes nothing: the log goes
 * with its task.
 */
export function activityFor(change: ActivityChange): NewActivity[] {
  const { before, after, actor } = change;
  if (after === undefined) return [];
  const entry = (type: NewActivity['type'], changes: string | null = null): NewActivity => ({
    id: newId(),
    taskId: after._id,
    type,
    actorId: actor.userId,
    actorName: actor.fullName,
    actorEmail: actor.email,
    at: change.now.toISOString(),
    changes,
  });
  if (before === undefined) return [entry('created')];
  const entries: NewActivity[] = [];
  const changes: Partial<Record<ActivityChangeField, { from: string | null; to: string | null }>> = {};
  for (const field of TRACKED_FIELDS) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if (change.boards !== undefined) changes.board = change.boards;
  const labels = { from: labelNames(before.labels), to: labelNames(after.labels) };
  if (labels.from !== labels.to) changes.labels = labels;
  if (Object.keys(changes).length > 0) entries.push(entry('updated', JSON.stringify(changes)));
  if (before.status !== after.status) entries.push(entry(after.status === 'done' ? 'completed' : 'reopened'));
  return entries;
}
