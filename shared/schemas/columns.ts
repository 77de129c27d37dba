import { Type, type Static } from 'typebox';
import { COLUMN_POLICY } from '../column-messages.ts';
import { STATUSES } from '../constants.ts';
import { literalUnion } from './common.ts';
import { TaskSchema, TaskVersion } from './tasks.ts';

export const ColumnCategoryField = literalUnion(STATUSES, { description: "todo or done: the status of every task in the column." });

/** A board's column, as Board JSON and the columns API show it. */
export const ColumnSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String(),
  category: ColumnCategoryField,
  wipLimit: Type.Union([Type.Integer({ minimum: COLUMN_POLICY.wipMin, maximum: COLUMN_POLICY.wipMax }), Type.Null()], {
    description: 'null: none. A warning when the column holds more tasks, never a refusal.',
  }),
  position: Type.String({ description: 'Opaque order key among the board\'s columns: ascending byte-wise, left first.' }),
});
export type Column = Static<typeof ColumnSchema>;

export const ColumnWithCountSchema = Type.Object({
  ...ColumnSchema.properties,
  count: Type.Integer({ minimum: 0, description: 'The tasks in it that you can see.' }),
});
export type ColumnWithCount = Static<typeof ColumnWithCountSchema>;

const ColumnNameInput = Type.String({
  maxLength: COLUMN_POLICY.nameMax * 4,
  description: `Trimmed; ${COLUMN_POLICY.nameMin} to ${COLUMN_POLICY.nameMax} characters; unique on the board ignoring case.`,
});
const WipLimitInput = Type.Union([Type.Integer({ minimum: COLUMN_POLICY.wipMin, maximum: COLUMN_POLICY.wipMax }), Type.Null()], {
  description: `null: no limit; else ${COLUMN_POLICY.wipMin} to ${COLUMN_POLICY.wipMax}.`,
});
const AfterColumnInput = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
  description: 'The column it follows; null: first.',
});

export const CreateColumnBody = Type.Object({
  name: ColumnNameInput,
  category: ColumnCategoryField,
  wipLimit: Type.Optional(WipLimitInput),
  afterId: Type.Optional(AfterColumnInput),
});
export type CreateColumnBody = Static<typeof CreateColumnBody>;

export const UpdateColumnBody = Type.Object(
  {
    name: Type.Optional(ColumnNameInput),
    category: Type.Optional(ColumnCategoryField),
    wipLimit: Type.Optional(WipLimitInput),
    afterId: Type.Optional(AfterColumnInput),
  },
  { minProperties: 1 },
);
export type UpdateColumnBody = Static<typeof UpdateColumnBody>;

export const ColumnParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: "The board's id." }),
  columnId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ColumnParams = Static<typeof ColumnParams>;

export const DeleteColumnQuery = Type.Object({
  moveTo: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The column its tasks go to (kept in order, at its end).' })),
});
export type DeleteColumnQuery = Static<typeof DeleteColumnQuery>;

export const ColumnEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ column: ColumnSchema }),
});
export type ColumnEnvelope = Static<typeof ColumnEnvelope>;

export const ColumnListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ columns: Type.Array(ColumnWithCountSchema, { description: 'Left to right.' }) }),
});
export type ColumnListEnvelope = Static<typeof ColumnListEnvelope>;

export const MoveTaskBody = Type.Object({
  columnId: Type.String({ minLength: 1, maxLength: 64, description: "A column of the task's board." }),
  afterId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], { description: 'The task it goes directly below; null: the top.' }),
  version: TaskVersion,
});
export type MoveTaskBody = Static<typeof MoveTaskBody>;

export const MoveTaskEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String({ description: 'Says so when the move leaves the column over its WIP limit.' }),
  data: Type.Object({ task: TaskSchema }),
});
export type MoveTaskEnvelope = Static<typeof MoveTaskEnvelope>;
