import { Type, type Static } from 'typebox';
import { BoardSchema } from './boards.ts';

export const ImportCountsSchema = Type.Object({
  tasks: Type.Integer({ description: 'Tasks made, one per open card on an open list.' }),
  labels: Type.Integer({ description: 'Labels made on the new board.' }),
  checklistItems: Type.Integer(),
  comments: Type.Integer(),
});

export const TrelloImportEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String({ description: 'What was imported, and what did not fit (texts shortened, labels or checklist items past the limits).' }),
  data: Type.Object({ board: BoardSchema, counts: ImportCountsSchema }),
});
export type TrelloImportEnvelope = Static<typeof TrelloImportEnvelope>;
