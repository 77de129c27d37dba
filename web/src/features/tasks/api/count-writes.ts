import type { QueryClient } from '@tanstack/react-query';
import type { Task, TaskCounts } from '#shared/schemas/tasks.ts';
import { ANY_FIELD, mayChange, onlyStatusRead, scheduleRefresh, type ChangedFields } from './list-refresh.ts';
import { filterOfKey, membershipOf, taskKeys } from './query-keys.ts';

/*
 * The column badges after a change of one task. Where the result is certain without the
 * server, it is written at once: a task its filter's lists held (so the server counted it) that
 * only moved to another column, or is gone. Anything else is asked again (list-refresh.ts),
 * and so is "overdue" whenever the task has a deadline: the server decides what is overdue.
 */

/** The counts with `before` taken out of its column and `after` put into its own. */
function shifted(data: TaskCounts, before: Task, after: Task | null): TaskCounts {
  const next = { ...data, [before.status]: Math.max(0, data[before.status] - 1) };
  if (after) next[after.status] += 1;
  // A board's counts also hold each column's.
  if (data.columns) {
    const columns = { ...data.columns };
    if (columns[before.columnId] !== undefined) columns[before.columnId] = Math.max(0, (columns[before.columnId] ?? 0) - 1);
    if (after && columns[after.columnId] !== undefined) columns[after.columnId] = (columns[after.columnId] ?? 0) + 1;
    next.columns = columns;
  }
  return next;
}

/**
 * `heldBy`: the memberships (membershipOf) of the cached lists that held `before`.
 */
export function writeCounts(queryClient: QueryClient, before: Task | null, after: Task | null, changed: ChangedFields, heldBy: ReadonlySet<string>): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: taskKeys.allCounts() })) {
    const filter = filterOfKey(query.queryKey);
    if (!mayChange(filter, changed, { counts: true })) continue;
    const data = query.state.data as TaskCounts | undefined;
    const certain =
      data !== undefined &&
      before !== null &&
      heldBy.has(membershipOf(filter)) &&
      // An answer under way may predate the change and overwrite what is written here.
      query.state.fetchStatus !== 'fetching' &&
      (after === null || (changed !== ANY_FIELD && onlyStatusRead(filter, changed)));
    if (!certain) {
      scheduleRefresh(queryClient, query.queryKey);
      continue;
    }
    queryClient.setQueryData<TaskCounts>(query.queryKey, shifted(data, before, after));
    if (before.deadline !== null || (after !== null && after.deadline !== null)) scheduleRefresh(queryClient, query.queryKey);
  }
}
