import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { PRIORITY_ORDER, PRIORITY_RANK, type Priority, type TaskSort } from '#shared/constants.ts';
import { slot } from '../db/prepared.ts';
import { columnRef as col } from './task-columns.ts';

/** A keyset position: the sort key of the last row of the previous page. */
export interface SortPosition {
  createdAt: string;
  id: string;
  /** sort=deadline: the row's deadline (null: it had none). */
  deadline?: string | null;
  /** sort=priority: the row's priority. */
  priority?: Priority;
}

/** What a list query's keyset condition depends on: the sort, and whether (and where) a page starts after a position. */
export interface KeysetShape {
  sort: TaskSort;
  after: 'none' | 'value' | 'null';
}

/**
 * A priority's rank (PRIORITY_RANK) in SQL; the least pressing priority is the `else`. The ranks
 * are literals, so the SQL text is the same on every run and a statement using it is prepared once.
 * Migration 0019 indexes this very expression (`tasks_board_status_rank_idx`): change both together.
 */
export function priorityRank(ref: RawBuilder<unknown>) {
  const ranks = PRIORITY_ORDER.slice(0, -1).map((priority) => sql`when ${sql.lit(priority)} then ${sql.lit(PRIORITY_RANK[priority])}`);
  return sql<number>`(case ${ref} ${sql.join(ranks, sql` `)} else ${sql.lit(PRIORITY_ORDER.length - 1)} end)`;
}

/** The ORDER BY terms of a sort, on the columns of `prefix`. */
export function orderTerms(prefix: string, sort: TaskSort): RawBuilder<unknown>[] {
  const tail = [sql`${col(prefix, 'createdAt')} desc`, sql`${col(prefix, 'id')} desc`];
  if (sort === 'deadline') {
    return [sql`(case when ${col(prefix, 'deadline')} is null then 1 else 0 end)`, sql`${col(prefix, 'deadline')} asc`, ...tail];
  }
  if (sort === 'priority') return [priorityRank(col(prefix, 'priority')), ...tail];
  return tail;
}

/**
 * Rows strictly after the keyset position, in the sort's order. `dated`: the part of a
 * sort=deadline page it applies to (see `Part`, task-list-queries.ts); undefined: the whole sort order.
 */
export function afterCondition(prefix: string, shape: KeysetShape, dated?: boolean): Expression<SqlBool> | undefined {
  if (shape.after === 'none') return undefined;
  const older = sql<SqlBool>`(${col(prefix, 'createdAt')}, ${col(prefix, 'id')}) < (${slot('afterCreatedAt')}, ${slot('afterId')})`;
  if (shape.sort === 'deadline') {
    const deadline = col(prefix, 'deadline');
    // Undated tasks come after every dated one.
    if (dated === false) return shape.after === 'null' ? older : undefined;
    // The `>=` bound lets the index seek to the position instead of reading up to it.
    if (dated === true) return sql<SqlBool>`(${deadline} >= ${slot('afterDeadline')} and (${deadline} > ${slot('afterDeadline')} or ${older}))`;
    return shape.after === 'null'
      ? sql<SqlBool>`(${deadline} is null and ${older})`
      : sql<SqlBool>`(${deadline} is null or ${deadline} > ${slot('afterDeadline')} or (${deadline} = ${slot('afterDeadline')} and ${older}))`;
  }
  if (shape.sort === 'priority') {
    const rank = priorityRank(col(prefix, 'priority'));
    // The `>=` bound lets an index in rank order seek to the position (migration 0019).
    return sql<SqlBool>`(${rank} >= ${slot('afterRank')} and (${rank} > ${slot('afterRank')} or ${older}))`;
  }
  return older;
}

/** The keyset shape of a list: where a page starts. */
export function keysetOf(sort: TaskSort, after: SortPosition | undefined): KeysetShape {
  return { sort, after: after === undefined ? 'none' : sort === 'deadline' && after.deadline === null ? 'null' : 'value' };
}

/** The arguments of `afterCondition` for a position. */
export function afterArgs(sort: TaskSort, after: SortPosition): Record<string, unknown> {
  const args: Record<string, unknown> = { afterCreatedAt: after.createdAt, afterId: after.id };
  if (sort === 'deadline' && after.deadline !== null && after.deadline !== undefined) args.afterDeadline = after.deadline;
  if (sort === 'priority') args.afterRank = PRIORITY_RANK[after.priority ?? 'low'];
  return args;
}
