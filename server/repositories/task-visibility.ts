import { sql, type SqlBool } from 'kysely';
import type { TaskView } from '#shared/constants.ts';
import { slot } from '../db/prepared.ts';

/** Who is asking: visibility is "created by me" or "assigned to my e-mail". */
export interface Viewer {
  userId: string;
  email: string;
}

/**
 * Whose tasks a part of the visible set reads: those I created, those assigned to me, those
 * assigned to me by someone else (tested in the query), or those assigned to me, cut to a page
 * and then without mine (see `partsOf`, task-list-queries.ts).
 */
export type Person = 'mine' | 'assigned' | 'assignedOnly' | 'assignedThenNotMine';

/**
 * The people whose tasks a view shows, none twice: with both, the assignee's part leaves out
 * my own tasks, before a page's cut or (`cutFirst`) after it.
 */
export function peopleOf(view: TaskView, cutFirst: boolean): Person[] {
  if (view === 'created-by-me') return ['mine'];
  if (view === 'assigned-to-me') return ['assigned'];
  return ['mine', cutFirst ? 'assignedThenNotMine' : 'assignedOnly'];
}

/** The view's visibility as one condition on the tasks table `t` (queries that start elsewhere, e.g. the FTS5 index). */
export function visibilityOf(view: TaskView) {
  return view === 'created-by-me'
    ? sql<SqlBool>`t.created_by = ${slot('userId')}`
    : view === 'assigned-to-me'
      ? sql<SqlBool>`t.assignee_email = ${slot('email')}`
      : sql<SqlBool>`(t.created_by = ${slot('userId')} or t.assignee_email = ${slot('email')})`;
}
