import { BOARD_ROLES, type BoardRole } from './constants.ts';

/*
 * Who may do what on a board: the one statement of the rule, read by the server (its services
 * and the SQL of its one-statement writes) and by the web app (which only hides what the server
 * would refuse). A person's role on a board is one of BOARD_ROLES while they are an active
 * member, and none (null/undefined) otherwise.
 *
 * - Any role sees every task of the board and comments on them.
 * - `member` and `admin` also create tasks on the board, and edit, complete, reopen, move and
 *   delete any of its tasks; they change its labels and import tasks into it.
 * - `admin` also renames, describes and deletes the board, adds and removes members, changes
 *   roles and manages the board's webhooks.
 * - The assignee of a task may edit, complete, reopen, comment on and delete that task whatever
 *   their role, and without any. Moving a task also needs `member` or `admin` on the target.
 * - A personal board (every account's own, its owner its admin) is never renamed, shared, left
 *   or deleted: those are refused as `personal` (400 PERSONAL_BOARD), before any role question.
 *   Its labels and webhooks are its owner's to change.
 * - Anyone may leave a shared board; only an admin removes someone else.
 * - The board's columns (add, rename, WIP limit, category, reorder, delete) are its admins' to
 *   change: a shared board's admins, a personal board's owner. Moving a task between columns is
 *   changing the task (canChangeTask).
 */

/** The roles, most rights first: each has every right of those after it. */
export const ROLE_ORDER: readonly BoardRole[] = BOARD_ROLES;

/** A role on a board (a BoardRole; strings from the database are taken as they are), or none: not an active member. */
export type RoleOrNone = string | null | undefined;

export function isBoardRole(role: RoleOrNone): role is BoardRole {
  return typeof role === 'string' && (BOARD_ROLES as readonly string[]).includes(role);
}

/** `role` has at least the rights of `least`; no role has none. */
export function roleAtLeast(role: RoleOrNone, least: BoardRole): boolean {
  return isBoardRole(role) && ROLE_ORDER.indexOf(role) <= ROLE_ORDER.indexOf(least);
}

/**
 * The role with every right: a shared board's creator gets it, a personal board's owner holds
 * it, and a board left without one (its last admin's account deleted) gives it to its
 * longest-standing member. A board always keeps at least one active member with it.
 */
export const ADMIN_ROLE: BoardRole = 'admin';

/** The roles that create and change a board's tasks (the server's SQL writes its `in (…)` list from these). */
export const TASK_EDITOR_ROLES: readonly BoardRole[] = ROLE_ORDER.filter((role) => roleAtLeast(role, 'member'));

/** The roles that manage a board (settings, members, roles, webhooks). */
export const BOARD_MANAGER_ROLES: readonly BoardRole[] = ROLE_ORDER.filter((role) => roleAtLeast(role, ADMIN_ROLE));

/** Sees the board's tasks: any active membership. */
export const canSeeBoard = (role: RoleOrNone): boolean => isBoardRole(role);

/** Comments on the board's tasks: any active membership (an assignee always may, see canCommentOnTask). */
export const canComment = (role: RoleOrNone): boolean => canSeeBoard(role);

/** Creates tasks on the board and edits, completes, reopens, moves (away and here) and deletes any of them. */
export const canEditTasks = (role: RoleOrNone): boolean => roleAtLeast(role, 'member');

/** Creates, renames and deletes the board's labels. */
export const canChangeLabels = (role: RoleOrNone): boolean => canEditTasks(role);

/** Imports tasks (CSV, Trello) into the board. */
export const canImportTasks = (role: RoleOrNone): boolean => canEditTasks(role);

/** Manages the board: rename, describe, delete, members and roles (on a shared board), webhooks. */
export const canManageBoard = (role: RoleOrNone): boolean => roleAtLeast(role, ADMIN_ROLE);

/** Adds, renames, reorders and deletes the board's columns and sets their WIP limits and categories (a personal board's owner is its admin). */
export const canChangeColumns = (role: RoleOrNone): boolean => canManageBoard(role);

/** Lists and changes the board's webhooks (a personal board's owner is its admin). */
export const canManageWebhooks = (role: RoleOrNone): boolean => canManageBoard(role);

/**
 * Edits, completes, reopens and deletes one task: `role` the person's role on the task's board
 * (none when they are not on it), `isAssignee` whether the task is assigned to them.
 */
export const canChangeTask = (role: RoleOrNone, isAssignee: boolean): boolean => isAssignee || canEditTasks(role);

/** Deletes a file from a task (of a task they see): whoever added it, and the board's admins. */
export const canDeleteAttachment = (role: RoleOrNone, isUploader: boolean): boolean => isUploader || canManageBoard(role);

/** Comments on one task: its board's members and its assignee. */
export const canCommentOnTask = (role: RoleOrNone, isAssignee: boolean): boolean => isAssignee || canComment(role);

/** Why a change is refused: `personal` (400 PERSONAL_BOARD) or `forbidden` (403 FORBIDDEN). */
export type Refusal = 'personal' | 'forbidden';

/** A board as the rules need it: the person's role on it, and whether it is a personal board. */
export interface BoardRights {
  role: RoleOrNone;
  personal: boolean;
}

/** Renaming, describing or deleting the board, adding members or changing roles: undefined when allowed. */
export function boardChangeRefusal(board: BoardRights): Refusal | undefined {
  if (board.personal) return 'personal';
  return canManageBoard(board.role) ? undefined : 'forbidden';
}

/** Whether the person may change the board itself and its members (see boardChangeRefusal). */
export const canChangeBoard = (board: BoardRights): boolean => boardChangeRefusal(board) === undefined;

/** Removing a member: `self` when the member is the person (leaving). Undefined when allowed. */
export function memberRemovalRefusal(board: BoardRights, self: boolean): Refusal | undefined {
  if (board.personal) return 'personal';
  return self || canManageBoard(board.role) ? undefined : 'forbidden';
}

/** Whether the person may leave the board (any member of a shared board). */
export const canLeave = (board: BoardRights): boolean => memberRemovalRefusal(board, true) === undefined;
