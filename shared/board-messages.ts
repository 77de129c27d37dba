import { BOARD_POLICY, LIMITS } from './constants.ts';
import { message, text } from './i18n.ts';

/** Answers of the boards API, shown as-is by the web app. */
export const BOARD_MESSAGES = {
  boardCreated: text('The board was created.'),
  boardSaved: text('The board was saved.'),
  memberAdded: text('The member was added.'),
  invited: text('The address was added. It becomes an active member as soon as an account is made with it.'),
  roleChanged: text('The role was changed.'),
  boardNotFound: text('There is no such board.'),
  memberNotFound: text('There is no such member on this board.'),
  forbidden: text('Only an admin of this board can do that.'),
  personalBoard: text('Your personal board cannot be renamed, described, shared, left or deleted.'),
  alreadyMember: text('That address is already on this board.'),
  lastAdmin: text('A board needs at least one active admin: make someone else admin first.'),
  tooManyMembers: message('A board can have at most {max, number} members.', { max: BOARD_POLICY.maxMembers }),
  tooManyBoards: message('An account can be on at most {max, number} shared boards.', { max: BOARD_POLICY.maxSharedBoardsPerAccount }),
  addressOnTooManyBoards: message('That address is already on {max, number} shared boards, the most one account can be on.', { max: BOARD_POLICY.maxSharedBoardsPerAccount }),
  labelCreated: text('The label was created.'),
  labelSaved: text('The label was saved.'),
  labelNotFound: text('There is no such label on this board.'),
  labelExists: text('This board already has a label with that name.'),
  labelsForbidden: text('Only admins and members of this board can change its labels.'),
  tooManyLabels: message('A board can have at most {max, number} labels.', { max: LIMITS.labelsPerBoard }),
  labelsNotOnBoard: text("Every label must be one of the task's board."),
} as const;
