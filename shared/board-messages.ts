import { BOARD_POLICY, LIMITS } from './constants.ts';

const count = (n: number) => n.toLocaleString('en');

/** Answers of the boards API, shown as-is by the web app. */
export const BOARD_MESSAGES = {
  boardCreated: 'The board was created.',
  boardSaved: 'The board was saved.',
  memberAdded: 'The member was added.',
  invited: 'The address was added. It becomes an active member as soon as an account is made with it.',
  roleChanged: 'The role was changed.',
  boardNotFound: 'There is no such board.',
  memberNotFound: 'There is no such member on this board.',
  forbidden: 'Only an admin of this board can do that.',
  personalBoard: 'Your personal board cannot be renamed, described, shared, left or deleted.',
  alreadyMember: 'That address is already on this board.',
  lastAdmin: 'A board needs at least one active admin: make someone else admin first.',
  tooManyMembers: `A board can have at most ${count(BOARD_POLICY.maxMembers)} members.`,
  tooManyBoards: `An account can be on at most ${count(BOARD_POLICY.maxSharedBoardsPerAccount)} shared boards.`,
  addressOnTooManyBoards: `That address is already on ${count(BOARD_POLICY.maxSharedBoardsPerAccount)} shared boards, the most one account can be on.`,
  labelCreated: 'The label was created.',
  labelSaved: 'The label was saved.',
  labelNotFound: 'There is no such label on this board.',
  labelExists: 'This board already has a label with that name.',
  labelsForbidden: 'Only admins and members of this board can change its labels.',
  tooManyLabels: `A board can have at most ${count(LIMITS.labelsPerBoard)} labels.`,
  labelsNotOnBoard: "Every label must be one of the task's board.",
} as const;
