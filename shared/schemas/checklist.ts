import { Type, type Static } from 'typebox';

/** One item of a task's checklist (the checklist API lists them in order). */
export const ChecklistItemSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  text: Type.String(),
  done: Type.Boolean(),
});
export type ChecklistItem = Static<typeof ChecklistItemSchema>;

/** A task's checklist in numbers, as cards show it ("2/5"). */
export const ChecklistCountsSchema = Type.Object({
  done: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
});
export type ChecklistCounts = Static<typeof ChecklistCountsSchema>;
