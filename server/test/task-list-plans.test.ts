import { type CompiledQuery, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TaskSort, TaskStatus } from '#shared/constants.ts';
import type { DB } from '../db/schema.ts';
import { createTaskListQueries } from '../repositories/task-list-queries.ts';
import { createUser, insertBoard } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { lastStatement, planOf } from './query-plans.ts';

/**
 * "All my tasks" for a person on many boards (server/repositories/task-list-queries.ts): a page
 * in any order reads each board's tasks in the order of an index, one page per board and status,
 * and never sorts a whole board; the counts add up the boards' kept counts (migration 0019)
 * instead of counting their tasks. A plan that loses this still answers right, only slowly at
 * 50 boards of 1,000 tasks (bench/suites/boards.ts), so the plans are tested here.
 */
const t = useTestApp();

/** The last statement `run` sent to the database, as it was sent. */
const statementOf = (run: (queries: ReturnType<typeof createTaskListQueries>, spy: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery> =>
  lastStatement(t, (spy) => run(createTaskListQueries(t.app.db, t.app.dbDialect), spy));

async function viewerOnBoards() {
  const me = await createUser(t);
  const other = await createUser(t);
  for (let i = 0; i < 3; i += 1) await insertBoard(t, other, [{ who: me, role: 'member' }]);
  return { userId: me.id, email: me.email };
}

/**
 * The index scans on `index` whose parent node sorts (PostgreSQL): each such scan reads a whole
 * range to sort it instead of reading it in order. SQLite's plans have no such tree: none.
 */
function sortedScans(plan: string, index: RegExp): string[] {
  const lines = plan.split('\n');
  const indent = (line: string) => line.search(/\S/);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (!index.test(line) || !line.includes('Scan')) return;
    for (let j = i - 1; j >= 0; j -= 1) {
      const parent = lines[j]!;
      if (indent(parent) < indent(line) && (parent.includes('->') || j === 0)) {
        if (/^\s*(->\s*)?(Incremental )?Sort\b/.test(parent)) out.push(line.trim());
        return;
      }
    }
  });
  return out;
}

describe('the plans of "all my tasks"', () => {
  const cases: { sort: TaskSort; status?: TaskStatus; board: RegExp; assignee: RegExp }[] = [
    { sort: 'newest', board: /tasks_board_status_created_idx/, assignee: /tasks_assignee_status_created_idx/ },
    { sort: 'deadline', board: /tasks_board_status_deadline_idx/, assignee: /tasks_assignee_status_deadline_idx/ },
    { sort: 'priority', board: /tasks_board_status_rank_idx/, assignee: /tasks_assignee_status_rank_idx/ },
    { sort: 'priority', status: 'todo', board: /tasks_board_status_rank_idx/, assignee: /tasks_assignee_status_rank_idx/ },
  ];
  for (const { sort, status, board, assignee } of cases) {
    it(`a page of sort=${sort}${status === undefined ? '' : ` status=${status}`} reads each board and the assignee's tasks in the order of an index`, async () => {
      const viewer = await viewerOnBoards();
      const query = await statementOf((q, spy) => q.list(viewer, { view: 'all', sort, status, limit: 50 }, spy));
      const plan = await planOf(t, query);
      expect(plan).toMatch(board);
      expect(plan).toMatch(assignee);
      expect(sortedScans(plan, /tasks_board_status_|tasks_assignee_status_/), plan).toEqual([]);
      if (t.app.dbDialect === 'sqlite') {
        // Read from the index alone, not row by row from the table (the newest of the assignee's
        // part are 50 rows read whole, whose board is then tested).
        expect(plan).toMatch(new RegExp(`COVERING INDEX ${board.source}`));
        if (sort !== 'newest') expect(plan).toMatch(new RegExp(`COVERING INDEX ${assignee.source}`));
        // The boards' cuts never read table rows by rowid: only the page's chosen rows are read
        // (sort=priority used to read each board's 50 by `rowid in (…)`).
        expect(plan.match(/USING INTEGER PRIMARY KEY/g), plan).toHaveLength(1);
        // sort=priority: each board's page is two ranges of the rank index, bounded by its last row.
        if (sort === 'priority') expect(plan).toMatch(/COVERING INDEX tasks_board_status_rank_idx \(board_id=\? AND status=\? AND <expr>=\? AND created_at>\?\)/);
      } else {
        // Each board's cut stops at a bound of the page's last key, worked out once over a few
        // entries of each board before the boards are read (an InitPlan; a CTE when read more than once).
        expect(plan).toMatch(/InitPlan/);
        if (sort !== 'newest') expect(plan).toMatch(/CTE bound/);
        const cut = String.raw`Index Cond: \(\(board_id = m\.board_id\) AND \(status = '${status ?? 'todo'}'::text\) AND `;
        const from = String.raw`\(created_at >= COALESCE\(\$\d+, ''::text\)\)`;
        if (sort === 'newest') {
          expect(plan).toMatch(new RegExp(`${cut}${from}\\)`));
          // The assignee's cut leaves the board out: read backwards from its index alone, never sorted.
          expect(plan).toMatch(/Index Only Scan Backward using tasks_assignee_status_created_idx/);
        } else {
          // An order led by the rank or the deadline: the keys before the bound's, and the
          // bound's own key from its created_at on (two ranges of the index, each one seek).
          const lead = sort === 'priority' ? String.raw`\(\(CASE priority .* END\)` : String.raw`\(deadline`;
          expect(plan).toMatch(new RegExp(`${cut}${lead} < `));
          expect(plan).toMatch(new RegExp(`${cut}${lead} = .*\\) AND ${from}\\)`));
        }
      }
    });
  }

  it('a page of one priority, newest first, reads each board and the assignee’s tasks of that priority from the rank indexes alone', async () => {
    const viewer = await viewerOnBoards();
    const query = await statementOf((q, spy) => q.list(viewer, { view: 'all', sort: 'newest', status: 'todo', priority: 'urgent', limit: 50 }, spy));
    const plan = await planOf(t, query);
    // Not each board's newest entries tested against their rows until 50 match (a tenth of a
    // board's tasks are urgent: about 500 rows read per board and page).
    expect(plan).not.toMatch(/tasks_board_status_created_idx|tasks_assignee_status_created_idx/);
    expect(sortedScans(plan, /tasks_board_status_|tasks_assignee_status_/), plan).toEqual([]);
    if (t.app.dbDialect === 'sqlite') {
      expect(plan).toMatch(/COVERING INDEX tasks_board_status_rank_idx \(board_id=\? AND status=\? AND <expr>=\?/);
      expect(plan).toMatch(/INDEX tasks_assignee_status_rank_idx \(assignee_email=\? AND status=\? AND <expr>=\?/);
    } else {
      expect(plan).toMatch(/Index Only Scan using tasks_board_status_rank_idx on tasks +\(.*\n *Index Cond: \(\(board_id = m\.board_id\) AND \(status = 'todo'::text\) AND \(\(CASE priority .* END\) = /);
      expect(plan).toMatch(/Index Only Scan using tasks_assignee_status_rank_idx on tasks \w+ +\(.*\n *Index Cond: \(\(assignee_email = .*\) AND \(status = 'todo'::text\) AND \(\(CASE priority .* END\) = /);
    }
  });

  it('the counts add up the boards’ kept counts; only overdue reads the tasks, by index range', async () => {
    const viewer = await viewerOnBoards();
    const query = await statementOf((q, spy) => q.counts(viewer, { view: 'all' }, new Date().toISOString(), spy));
    const plan = await planOf(t, query);
    expect(plan).toMatch(/board_task_counts/);
    expect(plan).not.toMatch(/tasks_board_status_created_idx|SCAN tasks|Seq Scan on tasks/);
    // PostgreSQL picks among the board's indexes by the table's statistics (an empty table here).
    expect(plan).toMatch(t.app.dbDialect === 'sqlite' ? /tasks_board_status_deadline_idx \(board_id=\? AND status=\? AND deadline<\?\)/ : /using tasks_board_status_\w+ on tasks/);
  });
});
