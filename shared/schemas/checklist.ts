import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.ts';
import { TaskSchema } from './tasks.ts';

export { ChecklistCountsSchema, type ChecklistCounts } from './tasks.ts';

/** One item of a task's checklist (the checklist API lists them in order). */
export const ChecklistItemSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  text: Type.String(),
  done: Type.Boolean(),
});
export type ChecklistItem = Static<typeof ChecklistItemSchema>;

const ChecklistText = Type.String({
  maxLength: LIMITS.checklistTextMax * 2,
  description: `Plain text, trimmed; ${LIMITS.checklistTextMin} to ${LIMITS.checklistTextMax} characters.`,
});

/** `POST /api/tasks/:id/checklist`: a new item, appended unticked. */
export const ChecklistItemBody = Type.Object({ text: ChecklistText });
export type ChecklistItemBody = Static<typeof ChecklistItemBody>;

/** `PATCH /api/tasks/:id/checklist/:itemId`: any subset. */
export const ChecklistItemPatchBody = Type.Object({
  text: Type.Optional(ChecklistText),
  done: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Integer({ description: "0-based index in the list to move the item to (400 when outside the list)." })),
});
export type ChecklistItemPatchBody = Static<typeof ChecklistItemPatchBody>;

export const ChecklistItemParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  itemId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ChecklistItemParams = Static<typeof ChecklistItemParams>;

export const ChecklistEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ items: Type.Array(ChecklistItemSchema) }),
});
export type ChecklistEnvelope = Static<typeof ChecklistEnvelope>;

/** A checklist change: the item, and the task after it (its new version and checklist counts). */
export const ChecklistItemEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ item: ChecklistItemSchema, task: TaskSchema }),
});
export type ChecklistItemEnvelope = Static<typeof ChecklistItemEnvelope>;
