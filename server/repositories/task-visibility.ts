import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { TaskView } from '#shared/constants.ts';
import { TASK_EDITOR_ROLES } from '#shared/rights.ts';
import { slot } from '../db/prepared.ts';
import { columnRef as col } from './task-columns.ts';

/**
 * Who sees which tasks, and who may change them: the one place of the rule.
 *
 * A user sees a task when they are an active member (`board_members.user_id` is theirs, any
 * role) of the task's board, or when the task is assigned to their e-mail. Nobody else sees it:
 * every task call answers them 404, as for a missing id. The creator is not special: their
 * personal board (whose id is their user id, with them as its admin) is how they see what they
 * made for themselves. An invited membership (`user_id` null) shows nothing.
 *
 * Rights follow the viewer's role on the task's board (`boardRoleOf`), by the rule of
 * shared/rights.ts (`canEditTasks`, `canChangeTask`, …): `admin` and `member` may create on the
 * board and edit, complete, reopen, move and delete any of its tasks; `viewer` may see them and
 * comment. The assignee of a task may edit, complete, reopen, comment on and delete it whatever
 * their role, and without any.
 */

/** Who is asking. */
export interface Viewer {
  userId: string;
  email: string;
}

/** The roles that may create and change a board's tasks (`TASK_EDITOR_ROLES`), as the list of an SQL `in (…)`. */
export const EDITOR_ROLES_SQL = TASK_EDITOR_ROLES.map((role) => `'${role}'`).join(', ');

/** `ref` (a board id column or slot) is a board the viewer (`userId` slot) is an active member of. */
export function onMyBoard(ref: RawBuilder<unknown>) {
  return sql<SqlBool>`exists (select 1 from board_members vm where vm.board_id = ${ref} and vm.user_id = ${slot('userId')})`;
}

/** The viewer's role on the board `ref`, or null. */
export function boardRoleOf(ref: RawBuilder<unknown>) {
  return sql<string | null>`(select vm.role from board_members vm where vm.board_id = ${ref} and vm.user_id = ${slot('userId')})`;
}

/** The visibility rule on the task columns of `prefix` (slots `userId`, `email`). */
export function visibleTo(prefix: string) {
  return sql<SqlBool>`(${onMyBoard(col(prefix, 'boardId'))} or ${col(prefix, 'assigneeEmail')} = ${slot('email')})`;
}

/**
 * Whose tasks a part of the visible set reads:
 * - `board`: the tasks of one board (`board` slot; the viewer is an active member of it);
 * - `myBoards`: the tasks of every board the viewer is an active member of, each board read
 *   and cut on its own (see `branch`, task-list-queries.ts);
 * - `assigned`: those assigned to me (all visible to me);
 * - `assignedOffMyBoards`: those assigned to me on boards I am not a member of (else the board
 *   part has them), tested before a page's cut, or (`assignedThenOffMyBoards`) after it;
 * - `mine`: those I created that I still see (tested before the cut).
 */
export type Person = 'board' | 'myBoards' | 'assigned' | 'assignedOffMyBoards' | 'assignedThenOffMyBoards' | 'mine';

/**
 * The parts a view reads, none twice. `board`: the list is narrowed to one board (`board=`),
 * whose tasks the viewer, a member, all sees; the view then narrows them within the part.
 */
export function peopleOf(view: TaskView, cutFirst: boolean, board: boolean): Person[] {
  if (board) return ['board'];
  if (view === 'created-by-me') return ['mine'];
  if (view === 'assigned-to-me') return ['assigned'];
  return ['myBoards', cutFirst ? 'assignedThenOffMyBoards' : 'assignedOffMyBoards'];
}

/** The view's narrowing inside a board's tasks (prefix `prefix`), or undefined for all of them. */
export function viewWithinBoard(view: TaskView, prefix: string) {
  if (view === 'created-by-me') return sql<SqlBool>`${col(prefix, 'createdBy')} = ${slot('userId')}`;
  if (view === 'assigned-to-me') return sql<SqlBool>`${col(prefix, 'assigneeEmail')} = ${slot('email')}`;
  return undefined;
}

/** The view's visible tasks as one condition on the tasks table `t` (queries that start elsewhere, e.g. the FTS5 index). */
export function visibilityOf(view: TaskView, board: boolean) {
  if (board) {
    const within = viewWithinBoard(view, 't');
    const onBoard = sql<SqlBool>`t.board_id = ${slot('board')}`;
    return within === undefined ? onBoard : sql<SqlBool>`(${onBoard} and ${within})`;
  }
  if (view === 'assigned-to-me') return sql<SqlBool>`t.assignee_email = ${slot('email')}`;
  if (view === 'created-by-me') return sql<SqlBool>`(t.created_by = ${slot('userId')} and ${visibleTo('t')})`;
  return visibleTo('t');
}

/**
 * The visibility rule seen from the other side: the address `email` (a column or value) sees
 * the task of the columns of `prefix` (an active member of its board, any role, or its
 * assignee). Who is told of a mention asks this (comments-repository.ts).
 */
export function seenBy(email: RawBuilder<unknown>, prefix: string) {
  return sql<SqlBool>`(exists (select 1 from board_members sm where sm.board_id = ${col(prefix, 'boardId')} and sm.email = ${email} and sm.user_id is not null)
    or ${col(prefix, 'assigneeEmail')} = ${email})`;
}

/**
 * `seenBy` as SQL text, for statements written as text (the one-statement task writes of
 * task-write-statements.ts and the notifications they store): `email` an SQL expression, `alias`
 * the task row's alias, its columns in snake_case.
 */
export const seenByText = (email: string, alias: string) =>
  `(exists (select 1 from board_members sm where sm.board_id = ${alias}.board_id and sm.email = ${email} and sm.user_id is not null)
    or ${alias}.assignee_email = ${email})`;

/**
 * The accounts that see the tasks of `from` (a FROM item, e.g. one task's row, whose columns
 * `prefix` names), as a set of user ids: the board's active members (any role) and the
 * assignee when the address has an account. The same rule as `seenBy`, read from the task
 * (the people a comment can mention). Each half is a join on an index, not a test per account.
 */
export function accountsSeeing(from: RawBuilder<unknown>, prefix: string) {
  return sql<string>`(select sm.user_id from ${from} join board_members sm on sm.board_id = ${col(prefix, 'boardId')} where sm.user_id is not null
    union select su.id from ${from} join users su on su.email = ${col(prefix, 'assigneeEmail')})`;
}
