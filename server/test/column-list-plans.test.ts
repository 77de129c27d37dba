import { describe, expect, it } from 'vitest';
import { createColumnListQueries, type ColumnListOptions } from '../repositories/column-list-queries.ts';
import { createUser, insertBoard } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { lastStatement, planOf } from './query-plans.ts';

/**
 * A page of one column in its own order (`GET /api/tasks?column=…&sort=position&limit=50`,
 * server/repositories/column-list-queries.ts) reads the column's (column_id, position) index in
 * order and stops after the page: it never reads the whole column to sort it. A plan that loses
 * this still answers right, only slowly in a column of thousands of tasks at a million rows
 * (bench/suites/columns.ts), so the plans are tested here.
 */
const t = useTestApp();

async function aColumn() {
  const me = await createUser(t);
  const board = await insertBoard(t, me);
  const column = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'todo').executeTakeFirstOrThrow();
  return { viewer: { userId: me.id, email: me.email }, column: column.id };
}

describe('the plan of a column page in its order', () => {
  const cases: { name: string; options: Partial<ColumnListOptions> }[] = [
    { name: 'the first page', options: {} },
    { name: 'a page after a cursor', options: { after: { position: 'a0' } } },
    { name: 'a page of one priority', options: { priority: 'high' } },
    { name: 'a page of my tasks with a label', options: { view: 'assigned-to-me', label: 'x' } },
  ];
  for (const { name, options } of cases) {
    it(`${name} reads the column's index in order, without a sort`, async () => {
      const { viewer, column } = await aColumn();
      const query = await lastStatement(t, (spy) =>
        createColumnListQueries(t.app.db, t.app.dbDialect).list(viewer, { view: 'all', column, sort: 'position', limit: 51, ...options }, spy),
      );
      const plan = await planOf(t, query);
      if (t.app.dbDialect === 'sqlite') {
        expect(plan).toMatch(/SEARCH t USING INDEX tasks_column_position_idx \(column_id=\?/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      } else {
        expect(plan).toMatch(/Index Scan using tasks_column_position_idx on tasks t/);
        expect(plan).not.toMatch(/\bSort\b/);
        expect(plan).toMatch(/^Limit/);
      }
    });
  }
});

/**
 * The column counts of a board (`GET /api/tasks/counts?board=…`, and a board's columns with
 * their counts) count each column from its (column_id, position) index. Without filters that
 * index alone answers: a board of 20,000 tasks never has its task rows read.
 */
describe('the plan of the column counts of a board', () => {
  it('counts each column from the column index alone, never the task rows', async () => {
    const { viewer, column } = await aColumn();
    const board = await t.app.db.selectFrom('boardColumns').select('boardId').where('id', '=', column).executeTakeFirstOrThrow();
    const queries = createColumnListQueries(t.app.db, t.app.dbDialect);
    for (const filter of [{ view: 'all' }, { view: 'all', status: 'todo' }] as const) {
      const plan = await planOf(t, await lastStatement(t, (spy) => queries.counts(viewer, board.boardId, filter, spy)));
      if (t.app.dbDialect === 'sqlite') {
        expect(plan).toMatch(/SEARCH t USING COVERING INDEX tasks_column_position_idx \(column_id=\?\)/);
      } else {
        expect(plan).toMatch(/Index Only Scan using tasks_column_position_idx on tasks t/);
      }
      expect(plan).not.toMatch(/tasks_board_/);
    }
  });
});
