import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.ts';
import { literalUnion } from './common.ts';

/** A person as other people see them. */
export const PersonSchema = Type.Object({ fullName: Type.String(), email: Type.String() });
export type Person = Static<typeof PersonSchema>;

export const CommentSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  taskId: Type.String(),
  body: Type.String({ description: 'Plain text (never HTML).' }),
  author: PersonSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  mentions: Type.Array(Type.String(), { description: 'The addresses the comment mentions (`@address`) who could see the task when it was written.' }),
});
export type Comment = Static<typeof CommentSchema>;

export const CommentBody = Type.Object({
  body: Type.String({
    maxLength: LIMITS.commentMax * 2,
    description: `Plain text, trimmed; ${LIMITS.commentMin} to ${LIMITS.commentMax} characters.`,
  }),
});
export type CommentBody = Static<typeof CommentBody>;

export const CommentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  commentId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type CommentParams = Static<typeof CommentParams>;

export const CommentEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ comment: CommentSchema }),
});
export type CommentEnvelope = Static<typeof CommentEnvelope>;

export const CommentListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ comments: Type.Array(CommentSchema) }),
});
export type CommentListEnvelope = Static<typeof CommentListEnvelope>;

/** Everyone with an account who can see a task, by name: whom a comment can mention. */
export const PeopleEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ people: Type.Array(PersonSchema) }),
});
export type PeopleEnvelope = Static<typeof PeopleEnvelope>;

export const ACTIVITY_TYPES = ['created', 'updated', 'completed', 'reopened', 'commented', 'checklist'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
/** The fields an `updated` entry reports, in this order. */
export const TRACKED_FIELDS = ['taskTitle', 'workTitle', 'description', 'assignee', 'priority', 'deadline', 'startAt'] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];
/**
 * The keys of an `updated` entry's `changes`: the tracked fields, then `board` for a move (from
 * and to are the boards' names), `column` for a move to another column of the same category on
 * the same board (from and to are the columns' names; a move that completes or reopens the task
 * writes `completed` / `reopened` instead), `labels` (the label names, comma-separated, by name; null when
 * none) and `repeat` (shared/repeat.ts `describeRepeat`; null when it does not repeat).
 */
export const ACTIVITY_CHANGE_FIELDS = [...TRACKED_FIELDS, 'board', 'column', 'labels', 'repeat', 'attachment'] as const;
export type ActivityChangeField = (typeof ACTIVITY_CHANGE_FIELDS)[number];

const Change = Type.Object({
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.Union([Type.String(), Type.Null()]),
});

/** What a `checklist` activity entry did to one item. */
export const CHECKLIST_ACTIONS = ['added', 'checked', 'unchecked', 'edited', 'moved', 'deleted'] as const;
export type ChecklistAction = (typeof CHECKLIST_ACTIONS)[number];

export const ActivitySchema = Type.Object({
  _id: Type.String(),
  type: literalUnion(ACTIVITY_TYPES),
  by: PersonSchema,
  at: Type.String({ format: 'date-time' }),
  checklist: Type.Optional(
    Type.Object(
      { action: literalUnion(CHECKLIST_ACTIONS), text: Type.String({ description: "The item's text (after the change; for `edited`, the new text)." }) },
      { description: '`checklist` only: what happened to which item.' },
    ),
  ),
  repeatOf: Type.Optional(
    Type.Object({ _id: Type.String(), taskTitle: Type.String() }, { description: '`created` only, for the next occurrence of a repeating task: the completed task it repeats.' }),
  ),
  changes: Type.Optional(
    Type.Record(Type.String(), Change, { description: '`updated` only: {field: {from, to}} for each changed field; `board` (from and to are board names) when the task moved to another board; `column` (from and to are column names) when it moved to another column of the same category.' }),
  ),
});
export type Activity = Static<typeof ActivitySchema>;

export const ActivityListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ activity: Type.Array(ActivitySchema) }),
});
export type ActivityListEnvelope = Static<typeof ActivityListEnvelope>;
