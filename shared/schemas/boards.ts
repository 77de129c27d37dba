import { Type, type Static } from 'typebox';
import { BOARD_ROLES, LIMITS, MEMBER_STATUSES } from '../constants.ts';
import { EmailInput, literalUnion } from './common.ts';
import { ColumnSchema } from './columns.ts';
import { TaskCountsSchema } from './tasks.ts';

export const BoardRoleField = literalUnion(BOARD_ROLES, {
  description: 'admin: everything, incl. members and settings; member: create and change any task; viewer: read and comment.',
});
export const MemberStatusField = literalUnion(MEMBER_STATUSES, {
  description: 'invited: no account has the address yet; active: it has (no acceptance step).',
});

/** A board as the signed-in person sees it: `role` and `counts` are theirs. */
export const BoardSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String(),
  description: Type.String({ description: 'Plain text; "" when none.' }),
  personal: Type.Boolean({ description: 'The account\'s own board: it cannot be renamed, shared, left or deleted.' }),
  role: BoardRoleField,
  memberCount: Type.Integer({ description: 'Active and invited members.' }),
  counts: TaskCountsSchema,
  columns: Type.Array(ColumnSchema, { description: "The board's columns, left to right." }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Board = Static<typeof BoardSchema>;

/**
 * What the assignee of a task on a board they are not on may know of that board: its name and
 * its columns' names (a card in "All my tasks" names its board and column), nothing else.
 */
export const BoardNamesSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  columns: Type.Array(Type.Object({ _id: Type.String(), name: Type.String(), category: ColumnSchema.properties.category }), {
    description: "The board's columns, left to right.",
  }),
});
export type BoardNames = Static<typeof BoardNamesSchema>;

export const BoardNamesEnvelope = Type.Object({ status: Type.Literal('success'), data: Type.Object({ board: BoardNamesSchema }) });
export type BoardNamesEnvelope = Static<typeof BoardNamesEnvelope>;

/** How many boards one `GET /api/boards/names` may ask for. */
export const BOARD_NAMES_MAX_IDS = 50;

export const BoardNamesQuery = Type.Object({
  ids: Type.String({
    // 1 to 50 ids, comma-separated, none empty.
    pattern: `^[^,]{1,64}(,[^,]{1,64}){0,${BOARD_NAMES_MAX_IDS - 1}}$`,
    description: `Up to ${BOARD_NAMES_MAX_IDS} board ids, comma-separated.`,
  }),
});

export const BoardNamesListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ boards: Type.Array(BoardNamesSchema, { description: 'In the order asked, each once; a board the viewer may not name is left out.' }) }),
});
export type BoardNamesListEnvelope = Static<typeof BoardNamesListEnvelope>;

export const MemberSchema = Type.Object({
  email: Type.String({ description: 'Lower-cased.' }),
  fullName: Type.Union([Type.String(), Type.Null()], { description: 'null while no account has the address.' }),
  role: BoardRoleField,
  status: MemberStatusField,
  addedAt: Type.String({ format: 'date-time' }),
  addedBy: Type.Object({ fullName: Type.String(), email: Type.String() }),
});
export type Member = Static<typeof MemberSchema>;

export const BoardParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type BoardParams = Static<typeof BoardParams>;
export const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), email: Type.String({ minLength: 1, maxLength: 320 }) });
export type MemberParams = Static<typeof MemberParams>;

const NameInput = Type.String({ maxLength: 2000, description: `Trimmed; ${LIMITS.boardNameMin} to ${LIMITS.boardNameMax} characters.` });
const DescriptionInput = Type.String({ maxLength: LIMITS.boardDescriptionMax * 2, description: `Plain text, trimmed; at most ${LIMITS.boardDescriptionMax} characters.` });

export const CreateBoardBody = Type.Object({ name: NameInput, description: Type.Optional(DescriptionInput) });
export type CreateBoardBody = Static<typeof CreateBoardBody>;
export const UpdateBoardBody = Type.Object({ name: Type.Optional(NameInput), description: Type.Optional(DescriptionInput) }, { minProperties: 1 });
export type UpdateBoardBody = Static<typeof UpdateBoardBody>;
export const AddMemberBody = Type.Object({ email: EmailInput, role: BoardRoleField });
export type AddMemberBody = Static<typeof AddMemberBody>;
export const UpdateMemberBody = Type.Object({ role: BoardRoleField });
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

export const BoardListEnvelope = Type.Object({ status: Type.Literal('success'), data: Type.Object({ boards: Type.Array(BoardSchema) }) });
export type BoardListEnvelope = Static<typeof BoardListEnvelope>;
export const BoardEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ board: BoardSchema }),
});
export type BoardEnvelope = Static<typeof BoardEnvelope>;
export const BoardDetailEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ board: BoardSchema, members: Type.Array(MemberSchema) }),
});
export type BoardDetailEnvelope = Static<typeof BoardDetailEnvelope>;
export const MemberEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ member: MemberSchema }),
});
export type MemberEnvelope = Static<typeof MemberEnvelope>;
