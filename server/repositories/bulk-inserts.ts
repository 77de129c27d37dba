import type { Insertable } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/**
 * Many rows of one table in few statements: an import writes thousands of tasks, labels,
 * checklist items and comments in one transaction. Each statement carries at most
 * `ROWS_PER_STATEMENT` rows, so its bound values stay under both databases' limits (SQLite's
 * 32,766 variables, PostgreSQL's 65,535 parameters) at the widest table (tasks: 16 columns).
 */
const ROWS_PER_STATEMENT = 500;

export async function insertRows<T extends 'tasks' | 'labels' | 'taskLabels' | 'checklistItems' | 'comments' | 'taskActivity'>(
  ex: Executor,
  table: T,
  rows: readonly Insertable<DB[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    // Kysely types `values` per table; the union of tables widens it past what it can check here.
    await ex
      .insertInto(table)
      .values(rows.slice(start, start + ROWS_PER_STATEMENT))
      .execute();
  }
}
