import { Type, type Static } from 'typebox';
import { LIMITS, PRIORITIES, REPEAT_UNITS, STATUSES, TASK_SORTS, TASK_VIEWS } from '../constants.ts';
import { EmailInput, FailEnvelope, literalUnion } from './common.ts';
import { CoverSchema } from './attachments.ts';
import { LabelSchema } from './labels.ts';

export const PriorityField = literalUnion(PRIORITIES);
export const StatusField = literalUnion(STATUSES);

const DescriptionInput = Type.String({
  maxLength: LIMITS.descriptionMax * 2,
  description: `Plain text, trimmed; at most ${LIMITS.descriptionMax} characters.`,
});

/** A task's labels: the whole set, replacing what it had. */
const LabelIdsInput = Type.Array(Type.String({ maxLength: 64 }), {
  maxItems: 100,
  description: `The task's whole set of labels: ids of labels of the task's board (after a move, of the board it moves to); at most ${LIMITS.labelsPerTask}, repeats ignored. [] takes every label off.`,
});

/** `""` or `null` mean "no deadline"; otherwise ISO 8601 (no offset = UTC). */
const DeadlineInput = Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
  description: 'ISO 8601 date-time; without an offset it is read as UTC. "" or null: no deadline.',
});

/** `""` or `null` mean "no start"; otherwise ISO 8601 (no offset = UTC). */
const StartAtInput = Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
  description: 'When the work starts: ISO 8601 date-time (without an offset, UTC); "" or null: none. Not after the deadline when both are set (400 on `startAt`, or on `deadline` when only the deadline changes).',
});

/**
 * A task's checklist in numbers, as cards show it ("2/5"). Defined here, with the Task it is
 * part of, so that shared/schemas/checklist.ts can use the Task schema without an import cycle.
 */
export const ChecklistCountsSchema = Type.Object({
  done: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
});
export type ChecklistCounts = Static<typeof ChecklistCountsSchema>;

/** A repeating task's interval: every N days, weeks, months or years. */
export const RepeatSchema = Type.Object({
  every: Type.Integer({ minimum: LIMITS.repeatEveryMin, maximum: LIMITS.repeatEveryMax }),
  unit: literalUnion(REPEAT_UNITS),
});
export type Repeat = Static<typeof RepeatSchema>;
const RepeatInput = Type.Union([RepeatSchema, Type.Null()], {
  description: 'null: no repeat. A repeating task needs a deadline (400 on `repeat` otherwise). Sending the current value back changes nothing.',
});

export const TaskSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  workTitle: Type.String({ description: 'Empty string when none was given.' }),
  taskTitle: Type.String(),
  assignee: Type.String({ description: 'Lower-cased e-mail address.' }),
  assignor: Type.String({ description: "The creator's full name." }),
  assignorEmail: Type.String(),
  deadline: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  startAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the work starts; null when unset. Never after `deadline` when both are set.' }),
  priority: PriorityField,
  status: StatusField,
  description: Type.String({ description: 'Plain text (never HTML); "" when none.' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  version: Type.Integer({ minimum: 1, description: '1 on create, +1 on every successful change.' }),
  boardId: Type.String({ description: 'The board the task is on.' }),
  labels: Type.Array(LabelSchema, { description: "The task's labels, by name." }),
  checklist: ChecklistCountsSchema,
  repeat: Type.Union([RepeatSchema, Type.Null()], { description: 'null: the task does not repeat. Completing a repeating task creates its next occurrence.' }),
  columnId: Type.String({ description: "The column of the task's board it is in; `status` is that column's category." }),
  position: Type.String({ description: 'Opaque order key within the column: ascending byte-wise, top first.' }),
  attachmentCount: Type.Integer({ minimum: 0, description: 'Files on the task.' }),
  cover: Type.Union([CoverSchema, Type.Null()], { description: 'The image its card shows (`coverId` of PATCH); null when none.' }),
});
export type Task = Static<typeof TaskSchema>;

export const CreateTaskBody = Type.Object({
  taskTitle: Type.String({
    maxLength: 2000,
    description: `Trimmed; ${LIMITS.taskTitleMin} to ${LIMITS.taskTitleMax} characters.`,
  }),
  assignee: EmailInput,
  deadline: Type.Optional(DeadlineInput),
  startAt: Type.Optional(StartAtInput),
  priority: Type.Optional(PriorityField),
  workTitle: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
      description: `Trimmed; at most ${LIMITS.workTitleMax} characters.`,
    }),
  ),
  assignor: Type.Optional(Type.Unknown({ description: 'Ignored: the server sets the assignor.' })),
  description: Type.Optional(DescriptionInput),
  status: Type.Optional(StatusField),
  boardId: Type.Optional(Type.String({ maxLength: 64, description: "The board to create it on (default: the creator's personal board); needs the admin or member role there." })),
  labelIds: Type.Optional(LabelIdsInput),
  repeat: Type.Optional(RepeatInput),
  columnId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "The board's column it goes to the top of (default: the first column of its status). Its status is that column's category." })),
});
export type CreateTaskBody = Static<typeof CreateTaskBody>;

/** The version a write expects the task to be at; a different current version answers 409. */
export const TaskVersion = Type.Integer({ minimum: 1, description: 'The version this change is based on (409 CONFLICT when it is not current).' });

/** Any subset of the task, or the whole task as the original task-board client sends it. */
export const UpdateTaskBody = Type.Object({
  taskTitle: Type.Optional(Type.String({ maxLength: 2000 })),
  assignee: Type.Optional(EmailInput),
  deadline: Type.Optional(DeadlineInput),
  startAt: Type.Optional(StartAtInput),
  priority: Type.Optional(PriorityField),
  status: Type.Optional(StatusField),
  workTitle: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  version: Type.Optional(TaskVersion),
  description: Type.Optional(DescriptionInput),
  boardId: Type.Optional(Type.String({ maxLength: 64, description: 'Moves the task to this board (admin or member role there). Its labels are dropped unless `labelIds` of that board come with it.' })),
  labelIds: Type.Optional(LabelIdsInput),
  repeat: Type.Optional(RepeatInput),
  coverId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], { description: "One of the task's images (an attachment with a thumbnail) for its card, 400 otherwise; null: no cover." })),
});
export type UpdateTaskBody = Static<typeof UpdateTaskBody>;

/** The most tasks one bulk change takes. */
export const BULK_TASKS_MAX = 500;

/**
 * Exactly one kind of change, applied to every task of a bulk change: one object whose
 * properties are all optional, exactly one of them given (checked by the route: a union of
 * one-property objects would not survive the validator's removal of unknown properties).
 */
const BulkChangeSchema = Type.Object(
  {
    columnId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "To the top of this column (of every task's board), in the order of `taskIds`." })),
    /** To the top of the first column of this status on each task's board. */
    status: Type.Optional(StatusField),
    assignee: Type.Optional(EmailInput),
    priority: Type.Optional(PriorityField),
    deadline: Type.Optional(DeadlineInput),
    addLabelIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: "Labels (of each task's board) added to those it has (at most 10 a task)." })),
    removeLabelIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Labels taken off (those a task lacks are ignored).' })),
    boardId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Moves every task to this board (the top of its first column of the task's status); their labels are dropped." })),
    delete: Type.Optional(Type.Literal(true)),
  },
  { description: 'Exactly one of these properties (400 on `change` otherwise).' },
);
/** A bulk change as the service takes it: exactly one kind. */
export type BulkChange =
  | { columnId: string }
  | { status: Static<typeof StatusField> }
  | { assignee: string }
  | { priority: Static<typeof PriorityField> }
  | { deadline: string | null }
  | { addLabelIds: string[] }
  | { removeLabelIds: string[] }
  | { boardId: string }
  | { delete: true };


export const BulkTasksBody = Type.Object({
  taskIds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: BULK_TASKS_MAX, description: `1 to ${BULK_TASKS_MAX} task ids (repeats ignored).` }),
  change: BulkChangeSchema,
  versions: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: BULK_TASKS_MAX,
      description:
        'The version each task is expected to have, in the order of `taskIds` (one per id, a repeated id with the same version). ' +
        'When given, any task at another version answers 409 CONFLICT naming it (`data.taskId`, its current copy in `data.task`) and nothing changes; ' +
        'a count other than that of `taskIds` is a 400. Without it, the tasks are changed whatever their versions.',
    }),
  ),
});
export type BulkTasksBody = Static<typeof BulkTasksBody>;

export const BulkTasksEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Union([Type.Object({ tasks: Type.Array(TaskSchema) }), Type.Object({ deleted: Type.Integer({ minimum: 0 }) })]),
});
export type BulkTasksEnvelope = Static<typeof BulkTasksEnvelope>;

/** A refused bulk change: `data.taskId` is the task it was refused for (absent when the request itself is invalid). */
export const BulkFailEnvelope = Type.Object({
  ...FailEnvelope.properties,
  data: Type.Optional(Type.Object({ taskId: Type.String() })),
});

/** 409: a task of a bulk change given `versions` is at another version; nothing changed. `data.task` is its current copy. */
export const BulkConflictEnvelope = Type.Object({
  status: Type.Literal('fail'),
  code: Type.Literal('CONFLICT'),
  message: Type.String(),
  data: Type.Object({ taskId: Type.String(), task: TaskSchema }),
});
export type BulkConflictEnvelope = Static<typeof BulkConflictEnvelope>;

export const DeleteTaskQuery = Type.Object({ version: Type.Optional(TaskVersion) });
export type DeleteTaskQuery = Static<typeof DeleteTaskQuery>;

/** 409: the write was based on another version; nothing changed. `data.task` is the current task. */
export const ConflictEnvelope = Type.Object({
  status: Type.Literal('fail'),
  code: Type.Literal('CONFLICT'),
  message: Type.String(),
  data: Type.Object({ task: TaskSchema }),
});
export type ConflictEnvelope = Static<typeof ConflictEnvelope>;

export const TaskParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type TaskParams = Static<typeof TaskParams>;

/** The filters `GET /api/tasks` and `GET /api/tasks/counts` share. */
const taskFilters = {
  board: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this board\'s tasks (404 for a board you are not on). Without it: every task you can see.' })),
  /** `""` is what the original task-board client (it sends the whole task) sends for "All Tasks". */
  priority: Type.Optional(Type.Union([PriorityField, Type.Literal('')])),
  status: Type.Optional(StatusField),
  view: Type.Optional(literalUnion(TASK_VIEWS, { description: 'Whose tasks: all (default), assigned-to-me, created-by-me.' })),
  label: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only the tasks carrying this label (of those I can see; an unknown label: none).' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: LIMITS.searchMin,
      maxLength: LIMITS.searchMax,
      description: 'Case-insensitive substring of the task title, work title, description or assignee.',
    }),
  ),
};

export const ListTasksQuery = Type.Object({
  ...taskFilters,
  sort: Type.Optional(
    literalUnion([...TASK_SORTS, 'position'] as const, {
      description: 'newest (default); deadline: soonest first, none last; priority: urgent to low; position: the column\'s order, top first (needs `column`, 400 otherwise).',
    }),
  ),
  column: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this column\'s tasks (a column of a board you are on; 404 otherwise). Works with every filter and sort.' })),
  limit: Type.Optional(Type.Integer({ minimum: LIMITS.pageMin, maximum: LIMITS.pageMax })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page.' })),
});
export type ListTasksQuery = Static<typeof ListTasksQuery>;

export const TaskEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ task: TaskSchema }),
});
export type TaskEnvelope = Static<typeof TaskEnvelope>;

/** `GET /api/tasks/:id`. */
export const TaskDataEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ task: TaskSchema }),
});
export type TaskDataEnvelope = Static<typeof TaskDataEnvelope>;

export const TaskListEnvelope = Type.Object({
  status: Type.Literal('success'),
  results: Type.Integer(),
  data: Type.Object({
    tasks: Type.Array(TaskSchema),
    /** The cursor of the next page, or null on the last one. */
    nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
});
export type TaskListEnvelope = Static<typeof TaskListEnvelope>;

export const TaskCountsQuery = Type.Object(taskFilters);
export type TaskCountsQuery = Static<typeof TaskCountsQuery>;

/** The board's column totals for one filter. */
export const TaskCountsSchema = Type.Object({
  todo: Type.Integer(),
  done: Type.Integer(),
  overdue: Type.Integer({ description: 'Open tasks whose deadline has passed.' }),
  columns: Type.Optional(Type.Record(Type.String(), Type.Integer(), { description: "With `board=`: each of the board's columns (by id) and how many of the tasks counted are in it." })),
});
export type TaskCounts = Static<typeof TaskCountsSchema>;

export const TaskCountsEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ counts: TaskCountsSchema }),
});
export type TaskCountsEnvelope = Static<typeof TaskCountsEnvelope>;
