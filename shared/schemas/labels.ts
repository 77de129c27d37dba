import { Type, type Static } from 'typebox';
import { LABEL_COLORS, LIMITS } from '../constants.ts';
import { literalUnion } from './common.ts';

export const LabelColorField = literalUnion(LABEL_COLORS, { description: 'One of a fixed palette that keeps AA contrast in both themes.' });

/** A board's label, as tasks and the labels API show it. */
export const LabelSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String(),
  color: LabelColorField,
});
export type Label = Static<typeof LabelSchema>;

const LabelNameInput = Type.String({
  maxLength: LIMITS.labelNameMax * 4,
  description: `Trimmed; ${LIMITS.labelNameMin} to ${LIMITS.labelNameMax} characters; unique on the board ignoring case.`,
});

export const CreateLabelBody = Type.Object({ name: LabelNameInput, color: LabelColorField });
export type CreateLabelBody = Static<typeof CreateLabelBody>;

export const UpdateLabelBody = Type.Object({ name: Type.Optional(LabelNameInput), color: Type.Optional(LabelColorField) });
export type UpdateLabelBody = Static<typeof UpdateLabelBody>;

export const LabelParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: "The board's id." }),
  labelId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type LabelParams = Static<typeof LabelParams>;

export const LabelEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ label: LabelSchema }),
});
export type LabelEnvelope = Static<typeof LabelEnvelope>;

export const LabelListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ labels: Type.Array(LabelSchema, { description: 'By name (ignoring case).' }) }),
});
export type LabelListEnvelope = Static<typeof LabelListEnvelope>;
