import { Type, type Static } from 'typebox';
import { LABEL_COLORS } from '../constants.ts';
import { literalUnion } from './common.ts';

export const LabelColorField = literalUnion(LABEL_COLORS, { description: 'One of a fixed palette that keeps AA contrast in both themes.' });

/** A board's label, as tasks and the labels API show it. */
export const LabelSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String(),
  color: LabelColorField,
});
export type Label = Static<typeof LabelSchema>;
