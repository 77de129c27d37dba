import { sql, type Expression, type Kysely, type QueryCreator, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { DEFAULT_VIEW, PRIORITY_ORDER, PRIORITY_RANK, STATUSES, type Priority, type TaskSort, type TaskStatus, type TaskView } from '#shared/constants.ts';
import type { TaskCounts } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, type Executor, type Prepared } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { columnRef as col, LISTED_COLUMNS, taskSelect, type ListedColumn, type TaskColumn, type TaskRowValues } from './task-columns.ts';
import { afterArgs, afterCondition, keysetOf, orderTerms, priorityRank, type KeysetShape, type SortPosition } from './task-order.ts';
import { onMyBoard, peopleOf, viewWithinBoard, visibilityOf, visibleTo, type Person, type Viewer } from './task-visibility.ts';
import { FTS_MAX_HITS, FTS_MAX_HITS_NEWEST_PAGE, ftsPhrase, likePattern, startFromTrigrams, textCondition, TRIGRAM, type TextMode } from './task-search.ts';

/**
 * The board's list and count queries: visibility, `view`, `board`, filters, text search, three
 * sort orders and keyset paging, compiled once per shape (db/prepared.ts).
 *
 * Visibility (task-visibility.ts) is index range scans merged with UNION ALL instead of an OR
 * that would scan the table: the tasks of each board I am an active member of, and those
 * assigned to me on boards I am not on (so nothing appears twice). A page reads each part in
 * the order of an index and cuts it at the page size, so it reads at most (parts × limit) rows
 * whoever asks and however many tasks the table has: newest first from the (board, status,
 * created_at, id) and (assignee, status, created_at, id) indexes, one part per board (or
 * person) and status; sort=deadline from the (…, status, deadline, created_at desc, id desc)
 * indexes, with the dated and the undated tasks as separate parts. "Every board I am on" is
 * one cut per board: a LATERAL join on PostgreSQL; on SQLite (no LATERAL) a range join of each
 * board's index from the page's last key on (`boardFrom`; sort=priority: `priorityBoards`); so a
 * person on 50 boards reads at most 50 × limit index entries per status, not the 50 boards'
 * tasks, and PostgreSQL's pages stop each board at a bound sampled first (`pageBound`,
 * decisions 112 and 178). A page reads only the
 * sort keys of the parts' cuts, chooses its rows among them and then reads those rows
 * (`pageQuery`, decision 051). The assignee's part of a page leaves out the tasks on my boards
 * only after the cut (see `partsOf`).
 * sort=priority from the (…, status, rank, created_at desc, id desc) indexes (migration 0019).
 * Lists without a limit sort the visible rows. A page of the newest tasks
 * of any status is read as one part per status too, so a text search on the visible rows
 * stops after its page instead of testing all of them.
 *
 * Who sees which tasks: task-visibility.ts; text search: task-search.ts; sort orders and keyset
 * paging: task-order.ts; columns and row types: task-columns.ts.
 */

export interface TaskFilter {
  view: TaskView;
  /** Only this board's tasks; the caller has checked that the viewer is an active member of it. */
  board?: string | undefined;
  status?: TaskStatus | undefined;
  priority?: Priority | undefined;
  /** Only the tasks carrying this label (of those the viewer sees; any id, an unknown one matches nothing). */
  label?: string | undefined;
  /** Search text, 1–100 characters. */
  q?: string | undefined;
}

export interface ListOptions extends TaskFilter {
  sort: TaskSort;
  after?: SortPosition | undefined;
  /** Maximum rows; absent means all. */
  limit?: number | undefined;
  /**
   * The first `limit` rows of the whole list rather than a page: the parts are read whole and
   * cut once at the end (a request without `limit`). For the common person who sees a few
   * hundred tasks this is the cheapest plan (no per-part ordering and cutting; measured 3,850
   * against 2,900 req/s for a person who sees 50); a person who sees many pays a sort of what
   * they see, as a whole list always did.
   */
  whole?: boolean | undefined;
}

type Args = Record<string, unknown>;
type Columns = readonly ListedColumn[];
/**
 * How `label=` is read: `probe` tests each task the query reads anyway (task_labels' primary key),
 * `driven` starts from the label's rows (its (label_id, task_id) index) and reads their tasks.
 */
type LabelMode = 'none' | 'probe' | 'driven';
interface Shape {
  view: TaskView;
  board: boolean;
  status: boolean;
  priority: boolean;
  label: LabelMode;
  text: TextMode;
}

/**
 * A page of the newest or by deadline starts from the label's rows when it has at most this many
 * tasks; more, and the page reads the board's tasks in index order and tests each (it stops after
 * a page of matches, which comes soon when the label is common). Counts, sort=priority and lists
 * without a limit always start from the label: they read every match anyway, and a label's tasks
 * are some of one board's (a move drops a task's labels).
 */
const LABEL_DRIVEN_MAX = 2000;

/** How many of each board's first entries `pageBound` samples (50 boards: 200 entries for a page of 50). */
const SAMPLE_PER_BOARD = 4;

/**
 * PostgreSQL plans these with each run's values (db/prepared.ts): a text search, whose best plan
 * depends on the word, and `label=`, whose best join order depends on how many tasks carry the
 * label against how many the board or the viewer has (a generic plan read a board of 80,000 to
 * count a label on 100).
 */
const planPerRun = (shape: Shape) => shape.text !== 'none' || shape.label !== 'none';
/**
 * A part of the visible set, read in one index's order: a person, one status or all, and for a
 * page of sort=deadline the tasks with a deadline (`dated`, deadline order) or without
 * (newest first), which come after them.
 */
interface Part {
  person: Person;
  status: TaskStatus | undefined;
  dated: boolean | undefined;
}
/** An order's leading key before created_at desc, id desc (`leadOf`), and its direction in SQL. */
interface Lead {
  key: RawBuilder<unknown>;
  order: 'asc' | 'asc nulls last';
}
/** Where a part's rows come from: the tasks table, or (SQLite) my board memberships joined to it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- nothing selected yet
type TasksFrom = SelectQueryBuilder<DB, 'tasks', {}>;
/**
 * How a list may start from the text index: at most `maxHits` matches in the whole table, for a
 * page of `limit` (undefined: a whole list).
 */
interface TextSearch {
  maxHits: number;
  limit: number | undefined;
}
interface ListShape extends Shape, KeysetShape {
  /** An outer limit. */
  limit: boolean;
  /** Each part ordered and cut to the page too (see `partsOf`); false for a whole list. */
  paged: boolean;
}

export function createTaskListQueries(db: Kysely<DB>, dialect: Dialect) {
  /**
   * `ref` (a board id column) is not a board the viewer is an active member of. PostgreSQL plans
   * the NOT EXISTS as an anti join on a hash of my boards; SQLite would run it as a subquery per
   * row, so there the list of my boards is read once (an ephemeral index) and each row looks its
   * board up in it: 5,200 tasks assigned to me on my 50 boards were tested in 5 ms, now in 1 ms.
   * (board_members.board_id is never null, so NOT IN means what it says.)
   */
  const offMyBoards = (ref: RawBuilder<unknown>) =>
    dialect === 'postgres'
      ? sql<SqlBool>`not ${onMyBoard(ref)}`
      : sql<SqlBool>`${ref} not in (select vm.board_id from board_members vm where vm.user_id = ${slot('userId')})`;

  /** The viewer's board memberships (`userId` slot) as `m`, from `from` (the database, or it with a CTE). */
  const myMemberships = (from: QueryCreator<DB>) => from.selectFrom('boardMembers as m').where('m.userId', '=', slot('userId'));

  /** Filters every query shape shares, on the columns of `prefix` ('' inside a branch). */
  function filters(prefix: string, shape: Shape): Expression<SqlBool>[] {
    const out: Expression<SqlBool>[] = [];
    if (shape.status) out.push(sql<SqlBool>`${col(prefix, 'status')} = ${slot('status')}`);
    // As the priority's rank (a bijection): the (…, status, rank, created_at desc, id desc) indexes
    // (migration 0019) then hold a priority's tasks newest first, read from the index alone,
    // instead of each board's newest entries tested against their rows until a page matches.
    if (shape.priority) out.push(sql<SqlBool>`${priorityRank(col(prefix, 'priority'))} = ${slot('priorityRank')}`);
    if (shape.label === 'probe') {
      out.push(sql<SqlBool>`exists (select 1 from task_labels tl where tl.task_id = ${col(prefix, 'id')} and tl.label_id = ${slot('label')})`);
    }
    if (shape.text !== 'none') out.push(textCondition(dialect, prefix, shape.text));
    return out;
  }

  /**
   * The tasks of one part (see `Part`) that pass the filters, nothing selected yet. `board`: for
   * `myBoards`, the one board to read (a column of the outer query); without it, all of them.
   * `from`: where the rows come from, the tasks table unless given (SQLite's per-board join).
   */
  function partTasks(part: Part, shape: Shape, board?: RawBuilder<unknown>, from: TasksFrom = db.selectFrom('tasks')) {
    let q = from;
    const person = part.person;
    if (person === 'board') {
      q = q.where('boardId', '=', slot('board'));
      const within = viewWithinBoard(shape.view, 'tasks');
      if (within !== undefined) q = q.where(within);
    } else if (person === 'myBoards') {
      q = board === undefined
        ? q.where('boardId', 'in', (eb) => eb.selectFrom('boardMembers').select('boardId').where('userId', '=', slot('userId')))
        : q.where(sql<SqlBool>`tasks.board_id = ${board}`);
    } else if (person === 'mine') {
      q = q.where('createdBy', '=', slot('userId')).where(visibleTo('tasks'));
    } else {
      q = q.where('assigneeEmail', '=', slot('email'));
      if (person === 'assignedOffMyBoards') q = q.where(offMyBoards(col('tasks', 'boardId')));
    }
    if (part.status !== undefined) q = q.where('status', '=', sql.lit(part.status));
    if (part.dated !== undefined) q = q.where('deadline', part.dated ? 'is not' : 'is', null);
    for (const condition of filters('', shape)) q = q.where(condition);
    return q;
  }

  /** The order of a part of a page: within a dated or undated part, the deadline order is the index's own. */
  const partOrder = (part: Part, list: ListShape, prefix = '') => {
    if (part.dated === true) return [sql`${col(prefix, 'deadline')} asc`, ...orderTerms(prefix, 'newest')];
    if (part.dated === false) return orderTerms(prefix, 'newest');
    // PostgreSQL's first page of sort=deadline: one part whose order is the (…, status, deadline,
    // created_at desc, id desc) index's own (an ascending key puts nulls last).
    if (list.sort === 'deadline' && dialect === 'postgres') return [sql`${col(prefix, 'deadline')} asc nulls last`, ...orderTerms(prefix, 'newest')];
    return orderTerms(prefix, list.sort);
  };

  /**
   * The leading key of a part's order when it is not created_at (see `pageBound`): the priority's
   * rank, or the deadline (ascending; PostgreSQL's first page of sort=deadline puts no deadline
   * last). None for the newest first and for the undated part of sort=deadline.
   */
  function leadOf(part: Part, list: ListShape): Lead | undefined {
    if (list.sort === 'priority') return { key: priorityRank(col('', 'priority')), order: 'asc' };
    if (list.sort !== 'deadline' || part.dated === false) return undefined;
    return { key: col('', 'deadline'), order: part.dated === true ? 'asc' : 'asc nulls last' };
  }

  /** A part's rows after the keyset position, in the part's order, cut to the page when `list` is paged. */
  function cut<Q extends ReturnType<typeof partTasks>>(q: Q, part: Part, list: ListShape | undefined): Q {
    if (list === undefined) return q;
    let out = q;
    const after = afterCondition('', list, part.dated);
    if (after !== undefined) out = out.where(after) as Q;
    if (list.paged) {
      for (const term of partOrder(part, list)) out = out.orderBy(term) as Q;
      out = out.limit(slot('limit')) as Q;
    }
    return out;
  }

  /**
   * SQLite's cut of one board (`myBoards`, a page in index order): the board's rows from its
   * page's last one on, read from the index as a range of the join. The last row's leading sort
   * value (created_at, or the deadline of a dated part) is a correlated scalar subquery that reads
   * the board's index up to the page size; a board with fewer rows has none and is read whole.
   * Rows tied with the last one come along too; the page's own cut drops them.
   */
  function boardFrom(part: Part, list: ListShape): RawBuilder<SqlBool> {
    const leading = part.dated === true ? 'deadline' : 'created_at';
    let last = partTasks(part, list, sql.ref('m.boardId'));
    const after = afterCondition('', list, part.dated);
    if (after !== undefined) last = last.where(after);
    for (const term of partOrder(part, list)) last = last.orderBy(term);
    const bound = last.select(sql.raw(leading).as('v')).limit(1).offset(sql<number>`${slot('limit')} - 1`);
    // No row: '' is before every timestamp and '~' after every one (ISO 8601 text).
    return part.dated === true
      ? sql<SqlBool>`tasks.deadline <= coalesce((${bound}), '~')`
      : sql<SqlBool>`tasks.created_at >= coalesce((${bound}), '')`;
  }

  /**
   * PostgreSQL, a page of `myBoards`: the key of the page's last row is bounded before the boards
   * are read, so that each board's cut stops at the bound instead of reading `limit` entries
   * (decisions 112 and 178). The first SAMPLE_PER_BOARD entries of each board in the part's order
   * (after the position, as the cut reads them) are rows of the part, so the `limit`-th of them
   * in that order is no later than the `limit`-th row of the part: every row of the page is at or
   * before it. The bound is one row of a CTE (`bound`, worked out once): `l`, the order's leading key
   * (the priority's rank or the deadline; null for the newest first) and `c`, the created_at.
   * Fewer than `limit` sampled: no row, and every board is read as far as its cut goes. A person
   * on 50 boards whose first tasks are on a few of them read 50 × 51 index entries per status; now
   * 50 × SAMPLE_PER_BOARD and the few boards' entries up to the bound.
   */
  function pageBound(part: Part, shape: Shape, list: ListShape, lead: Lead | undefined) {
    let sample = partTasks(part, shape, sql.ref('bm.boardId'));
    const after = afterCondition('', list, part.dated);
    if (after !== undefined) sample = sample.where(after);
    for (const term of partOrder(part, list)) sample = sample.orderBy(term);
    const keys = sample.select([(lead?.key ?? sql`null`).as('l'), sql.ref('createdAt').as('c')]);
    let bound = db
      .selectFrom('boardMembers as bm')
      .where('bm.userId', '=', slot('userId'))
      .innerJoinLateral(keys.limit(sql.lit(SAMPLE_PER_BOARD)).as('s'), (join) => join.onTrue())
      .select(['s.l', 's.c']);
    if (lead !== undefined) bound = bound.orderBy(sql`s.l ${sql.raw(lead.order)}`);
    return bound.orderBy('s.c', 'desc').limit(1).offset(sql<number>`${slot('limit')} - 1`);
  }

  /**
   * The index ranges of a board that hold its rows at or before `pageBound`'s bound, each a list
   * of conditions (the board's cut reads each range in index order and cuts it at the page). The
   * newest first: one range, from the bound's created_at on. An order led by another key
   * (ascending) mixes directions, which no single range of the (…, status, key, created_at desc,
   * id desc) index can stop at: the keys before the bound's, and the bound's key from its
   * created_at on (ties on the bound are kept; the page's own cut drops them). Without a bound
   * (no row) the ranges still cover every row: all keys, and the last key (or no deadline) from
   * the earliest time on. A range that cannot hold a row is skipped without reading the index
   * (a condition on the bound alone, a one-time filter): urgent tasks have no rank before theirs,
   * and a dated bound leaves out the undated tasks.
   */
  function boundedRanges(part: Part, list: ListShape, lead: Lead | undefined): RawBuilder<SqlBool>[][] {
    const l = sql`(select l from bound)`;
    const newer = sql<SqlBool>`tasks.created_at >= coalesce((select c from bound), '')`;
    if (lead === undefined) return [[newer]];
    if (list.sort === 'priority') {
      const rank = priorityRank(col('tasks', 'priority'));
      const boundRank = sql`coalesce(${l}, ${sql.lit(PRIORITY_ORDER.length - 1)})`;
      return [
        // The most pressing priority is rank 0: nothing comes before it.
        [sql<SqlBool>`${boundRank} > ${sql.lit(0)}`, sql<SqlBool>`${rank} < ${boundRank}`],
        [sql<SqlBool>`${rank} = ${boundRank}`, newer],
      ];
    }
    // By deadline ('~' is after every ISO 8601 date); the first page's part also holds the
    // undated tasks, after every dated one.
    const dated = [[sql<SqlBool>`tasks.deadline < coalesce(${l}, '~')`], [sql<SqlBool>`tasks.deadline = ${l}`, newer]];
    return part.dated === true ? dated : [...dated, [sql<SqlBool>`${l} is null`, sql<SqlBool>`tasks.deadline is null`, newer]];
  }

  /**
   * SQLite's cut of each board for sort=priority (`myBoards`, a page): `boardFrom` with a bound of
   * two keys. The order is (rank, created_at desc, id desc), which no single range of the rank
   * index (board, status, rank, created_at desc, …) can stop at, so each board's page is two
   * ranges of it: the ranks before the page's last row's rank, and that rank from the last row's
   * created_at on. The last row (rank and created_at, packed as one text: the rank is one digit)
   * is worked out once per board (a materialized CTE over my memberships, its correlated subquery
   * reading the index up to the page size); a board with fewer rows has none and is read whole.
   * Everything is read from the index alone: the cut used to select each board's rowids and read
   * their table rows (50 boards × 2 statuses × 50 rows at random in a big table).
   */
  function priorityBoards(part: Part, shape: Shape, columns: Columns, list: ListShape) {
    const m = sql.ref('m.boardId');
    const rank = (prefix: string) => priorityRank(col(prefix, 'priority'));
    const after = afterCondition('', list, part.dated);
    let last = partTasks(part, shape, m);
    if (after !== undefined) last = last.where(after);
    for (const term of partOrder(part, list)) last = last.orderBy(term);
    const packed = last.select(sql`${rank('')} || created_at`.as('v')).limit(1).offset(sql<number>`${slot('limit')} - 1`);
    const bounds = db
      .selectFrom('boardMembers as m')
      .where('m.userId', '=', slot('userId'))
      .select(['m.boardId as b', packed.as('v')]);
    // No last row: every rank up to the last one, and the last one from the earliest time on.
    const lastRank = sql<number>`coalesce(cast(substr(x.v, 1, 1) as integer), ${sql.lit(PRIORITY_ORDER.length - 1)})`;
    const range = (condition: RawBuilder<SqlBool>) => {
      const from = db.$extendTables<{ x: { b: string; v: string | null } }>().selectFrom('x').crossJoin('tasks') as unknown as TasksFrom;
      let q = partTasks(part, shape, sql.ref('x.b'), from).where(condition);
      if (after !== undefined) q = q.where(after);
      return q.select(columns.map((c) => `tasks.${c}` as const)).select(sql`tasks.rowid`.as('r'));
    };
    const both = range(sql<SqlBool>`${rank('tasks')} = ${lastRank} and tasks.created_at >= coalesce(substr(x.v, 2), '')`).unionAll(
      range(sql<SqlBool>`${rank('tasks')} < ${lastRank}`),
    );
    let q = db.with((cte) => cte('x').materialized(), () => bounds).selectFrom(both.as('u')).selectAll();
    for (const term of orderTerms('u', 'priority')) q = q.orderBy(term);
    return q.limit(slot('limit'));
  }

  /**
   * One part of the visible set, as its own derived table, cut to a page when `list` has a limit.
   * `rowid`: SQLite, also select the row's rowid as `r` (a page's rows are then read by it).
   */
  function branch(part: Part, shape: Shape, columns: Columns, list?: ListShape, rowid = false) {
    if (part.person === 'myBoards' && list?.paged === true) {
      // One cut per board the viewer is an active member of.
      const m = sql.ref('m.boardId');
      const members = myMemberships(db);
      if (dialect === 'postgres') {
        const boardCut = (conditions: readonly RawBuilder<SqlBool>[]) => {
          let q = cut(partTasks(part, shape, m), part, list);
          for (const condition of conditions) q = q.where(condition);
          return q.select(columns.map((c) => `tasks.${c}` as const));
        };
        // Not with a text search or a label test: with few matches the sample would walk each
        // board as far as the cut does, and the cut would walk it again.
        const bounded = shape.text === 'none' && shape.label === 'none';
        const lead = leadOf(part, list);
        const ranges = bounded ? boundedRanges(part, list, lead) : [[]];
        // Several ranges: each cut in its own derived table (a LIMIT per branch of the UNION).
        const [only, ...more] = ranges;
        const perBoard =
          only !== undefined && more.length === 0
            ? boardCut(only)
            : ranges.map((conditions, i) => db.selectFrom(boardCut(conditions).as(`r${i}`)).selectAll()).reduce((union, next) => union.unionAll(next));
        // Read more than once, PostgreSQL materializes the CTE; read once (the newest first), it
        // becomes that subquery's InitPlan.
        const from: QueryCreator<DB> = bounded ? db.with('bound', () => pageBound(part, shape, list, lead)) : db;
        let q = myMemberships(from)
          .innerJoinLateral(perBoard.as('b'), (join) => join.onTrue())
          .select(columns.map((c) => `b.${c}` as const));
        // The boards' cuts merged and cut again: the page takes at most `limit` from this part.
        for (const term of partOrder(part, list, 'b')) q = q.orderBy(term);
        return q.limit(slot('limit'));
      }
      if (list.sort !== 'priority') {
        const from = members.innerJoin('tasks', (join) => join.onTrue()) as unknown as TasksFrom;
        let q = partTasks(part, shape, m, from).where(boardFrom(part, list));
        const after = afterCondition('', list, part.dated);
        if (after !== undefined) q = q.where(after);
        for (const term of partOrder(part, list, 'tasks')) q = q.orderBy(term);
        return q.select(columns.map((c) => `tasks.${c}` as const)).select(sql`tasks.rowid`.as('r')).limit(slot('limit'));
      }
      return priorityBoards(part, shape, columns, list);
    }
    const rows = cut(partTasks(part, shape), part, list).select(columns);
    return rowid ? rows.select(sql`rowid`.as('r')) : rows;
  }

  /**
   * The parts a query of this shape reads (see the top): one per person, and for a page in an
   * order an index holds (newest, deadline) also one per status and, for sort=deadline, dated and
   * undated tasks apart. The assignee's part of a page is cut first and only then loses the tasks
   * on my boards: every such task is also in a board part, and a task assigned to me on another
   * board that belongs on the page is among the first `limit` assigned to me. Testing it before
   * the cut would read every task assigned to me on my own boards (all of them, for one person
   * keeping their own list) to find the few others.
   */
  function partsOf(shape: Shape, list?: ListShape): Part[] {
    const indexOrder = list?.paged === true;
    const statuses = indexOrder && !shape.status ? STATUSES : [undefined];
    const datedness = indexOrder && list.sort === 'deadline' ? deadlineParts(list) : [undefined];
    return peopleOf(shape.view, indexOrder, shape.board).flatMap((person) => statuses.flatMap((status) => datedness.map((dated) => ({ person, status, dated }))));
  }

  /**
   * The dated and undated parts of a page of sort=deadline. After an undated position only
   * undated tasks are left. PostgreSQL reads a first page as one part (see `partOrder`): its
   * index holds the undated tasks after the dated ones, newest first, where SQLite's puts them
   * first; an undated part of its own would sort each board's undated tasks (`deadline is null`
   * does not count as an equality for the index's order). A page after a position keeps the two
   * parts, whose `afterCondition`s seek in the index.
   */
  function deadlineParts(list: ListShape): (boolean | undefined)[] {
    if (list.after === 'null') return [false];
    return dialect === 'postgres' && list.after === 'none' ? [undefined] : [true, false];
  }

  /** The visible set for a view: its parts (`partsOf`) merged without duplicates. */
  function visible(shape: Shape, columns: Columns, list?: ListShape, rowid = false) {
    const read = (part: Part) => {
      if (part.person === 'assignedThenOffMyBoards' && dialect === 'postgres' && list?.sort === 'newest' && columns.includes('boardId')) {
        // The cut without the board: the (assignee, status, created_at, id) index holds the
        // rest, so it is read backwards from the index alone and stops at the page; each of
        // its rows then finds its board by primary key. With the board in the cut, the generic
        // plan of the statement (it estimates 77 tasks per assignee, whoever asks) read and
        // sorted every task assigned to me from the (…, deadline, …, board_id) index instead:
        // 3,561 open ones for the benchmark's person, 0.8 ms against 0.25 ms.
        const cut = branch(part, shape, columns.filter((c) => c !== 'boardId'), list, rowid) as unknown as SelectQueryBuilder<DB, 'tasks', { id: string }>;
        return db
          .selectFrom(cut.as('b'))
          .innerJoin('tasks as bx', 'bx.id', 'b.id')
          .select(columns.map((c) => sql.ref(c === 'boardId' ? 'bx.boardId' : `b.${c}`).as(c)))
          .where(offMyBoards(col('bx', 'boardId')));
      }
      const rows = db.selectFrom(branch(part, shape, columns, list, rowid).as('b')).selectAll();
      return part.person === 'assignedThenOffMyBoards' ? rows.where(offMyBoards(col('b', 'boardId'))) : rows;
    };
    // At least one part: people and statuses are never empty.
    return partsOf(shape, list)
      .map(read)
      .reduce((union, next) => union.unionAll(next));
  }

  /**
   * Few matches (`fts`, `trigram`): the rows the text index matched (read by `plan`, slot
   * `matches`), those visible. Their text is tested again, on these rows only, so that a task
   * edited since is not shown. PostgreSQL: the tasks' ids, an array. SQLite: the FTS5 index's
   * keys, a JSON array (task_search_keys gives each its task); CROSS JOIN fixes the join order:
   * the keys first, then their rows.
   */
  function textDriven(shape: Shape) {
    const byIds = () => db.selectFrom('tasks as t').where(sql<SqlBool>`t.id = any(cast(${slot('matches')} as text[]))`);
    const byKeys = () =>
      db
        .$extendTables<{ taskSearchKeys: { key: number; taskId: string } }>()
        .selectFrom(sql`json_each(${slot('matches')})`.as('j'))
        .crossJoin('taskSearchKeys as k')
        .crossJoin('tasks as t')
        .where(sql<SqlBool>`k.key = j.value`)
        .whereRef('t.id', '=', 'k.taskId') as unknown as ReturnType<typeof byIds>;
    let q = (dialect === 'postgres' ? byIds() : byKeys()).where(visibilityOf(shape.view, shape.board));
    for (const condition of filters('t', { ...shape, text: 'scan' })) q = q.where(condition);
    return q;
  }

  /** Few tasks carry the label (`driven`): start from its index entries, keep the visible rows. */
  function labelDriven(shape: Shape) {
    // CROSS JOIN fixes the join order in SQLite: the label's entries first, then their rows.
    let q = db
      .selectFrom('taskLabels as tl')
      .crossJoin('tasks as t')
      .where('tl.labelId', '=', slot('label'))
      .whereRef('t.id', '=', 'tl.taskId')
      .where(visibilityOf(shape.view, shape.board));
    for (const condition of filters('t', shape)) q = q.where(condition);
    return q;
  }

  /**
   * Up to `limit` of the label's tasks (`driven`), chosen by their sort keys alone, then read
   * whole: a label on thousands of tasks sorts their keys, not thousands of whole rows with their
   * labels (as `pageQuery` does for the parts' cuts).
   */
  function labelPageQuery(shape: ListShape) {
    const keys = ['id', 'createdAt', 'deadline', 'priority'] as const;
    let chosen = db.selectFrom(labelDriven(shape).select(keys.map((c) => `t.${c}` as const)).as('k')).selectAll();
    const after = afterCondition('k', shape);
    if (after !== undefined) chosen = chosen.where(after);
    for (const term of orderTerms('k', shape.sort)) chosen = chosen.orderBy(term);
    let q = db
      .selectFrom(chosen.limit(slot('limit')).as('k'))
      .innerJoin('tasks as t', 't.id', 'k.id')
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select(taskSelect());
    for (const term of orderTerms('k', shape.sort)) q = q.orderBy(term);
    return q;
  }

  function buildList(shape: ListShape): Prepared<Args, TaskRowValues> {
    const options = { rowsAsArrays: true, planPerRun: planPerRun(shape) };
    const driven = shape.text === 'fts' || shape.text === 'trigram' || shape.label === 'driven';
    if (shape.paged && !driven) return prepare<Args, TaskRowValues>(pageQuery(shape), options);
    if (shape.label === 'driven' && shape.limit) return prepare<Args, TaskRowValues>(labelPageQuery(shape), options);
    const columns = LISTED_COLUMNS.map((c) => `t.${c}` as const);
    const rows = shape.label === 'driven' ? labelDriven(shape).select(columns) : textDriven(shape).select(columns);
    let q = driven
      ? db.selectFrom(rows.as('t')).innerJoin('users as u', 'u.id', 't.createdBy').select(taskSelect())
      : db.selectFrom(visible(shape, LISTED_COLUMNS, shape).as('t')).innerJoin('users as u', 'u.id', 't.createdBy').select(taskSelect());
    if (driven) {
      const after = afterCondition('t', shape);
      if (after !== undefined) q = q.where(after);
    }
    for (const term of orderTerms('t', shape.sort)) q = q.orderBy(term);
    if (shape.limit) q = q.limit(slot('limit'));
    return prepare<Args, TaskRowValues>(q, options);
  }

  /**
   * A page: the parts' cuts read only the sort keys (from the index where it holds them), the
   * page's rows are chosen among those keys, and only they are then read whole (by rowid on
   * SQLite, by id on PostgreSQL). A person on 50 boards has up to 50 × statuses × limit keys
   * compared, but only `limit` rows read and sent through the query.
   */
  function pageQuery(shape: ListShape) {
    const keys: TaskColumn[] = ['id', 'createdAt', 'boardId'];
    if (shape.sort === 'deadline') keys.push('deadline');
    if (shape.sort === 'priority') keys.push('priority');
    const sqlite = dialect === 'sqlite';
    let chosen = db.selectFrom(visible(shape, keys, shape, sqlite).as('k')).selectAll();
    for (const term of orderTerms('k', shape.sort)) chosen = chosen.orderBy(term);
    chosen = chosen.limit(slot('limit'));
    // SQLite: CROSS JOIN keeps the chosen keys the outer loop (each row then read by its rowid);
    // with a materialized CTE among the parts (sort=priority), its estimate of them made it scan
    // the tasks table instead.
    const chosenRows = db.selectFrom(chosen.as('k'));
    let q = (sqlite ? chosenRows.crossJoin('tasks as t').where(sql<SqlBool>`t.rowid = k.r`) : chosenRows.innerJoin('tasks as t', 't.id', 'k.id'))
      .innerJoin('users as u', 'u.id', 't.createdBy')
      .select(taskSelect());
    for (const term of orderTerms('k', shape.sort)) q = q.orderBy(term);
    return q;
  }

  /**
   * How many tasks of `status` the board (`board` slot) or every board the viewer is an active
   * member of has, from `board_task_counts` (a few rows per board, kept by triggers).
   */
  function keptCount(person: 'board' | 'myBoards', status: TaskStatus, shape: Shape) {
    let q = db
      .selectFrom('boardTaskCounts as c')
      .select(sql`coalesce(sum(c.n), 0)`.as('n'))
      .where('c.status', '=', sql.lit(status));
    q =
      person === 'board'
        ? q.where('c.boardId', '=', slot('board'))
        : q.where('c.boardId', 'in', (eb) => eb.selectFrom('boardMembers').select('boardId').where('userId', '=', slot('userId')));
    if (shape.status) q = q.where('c.status', '=', slot('status'));
    return sql`(${q})`;
  }

  /**
   * One row: to do, done and overdue, each the sum of one count per person. A count of one
   * person's tasks of one status (and, for overdue, deadline before now) is a range of their
   * (person, status, deadline) index (migration 0010): no table read, no sorting or grouping of
   * the rows. Filters other than the status test their columns in the table.
   */
  function buildCounts(shape: Shape): Prepared<Args, { todo: number; done: number; overdue: number }> {
    if (shape.label === 'driven') {
      const todo = sql<SqlBool>`t.status = 'todo'`;
      return prepare(
        labelDriven(shape).select((eb) => [
          eb.cast<number>(eb.fn.countAll().filterWhere(todo), 'integer').as('todo'),
          eb.cast<number>(eb.fn.countAll().filterWhere(sql<SqlBool>`t.status = 'done'`), 'integer').as('done'),
          eb.cast<number>(eb.fn.countAll().filterWhere(sql<SqlBool>`${todo} and t.deadline < ${slot('now')}`), 'integer').as('overdue'),
        ]),
        { planPerRun: planPerRun(shape) },
      );
    }
    const people = peopleOf(shape.view, false, shape.board);
    // Every task of a board (all of them, or every board I am on), no filter but the status: the
    // board's kept counts (migration 0019) instead of its tasks.
    const kept = shape.view === 'all' && !shape.priority && shape.label === 'none' && shape.text === 'none';
    const measure = (status: TaskStatus, overdue: boolean) => {
      const terms = people.map((person) => {
        if (kept && !overdue && (person === 'board' || person === 'myBoards')) return keptCount(person, status, shape);
        let q = partTasks({ person, status, dated: undefined }, shape).select((eb) => eb.fn.countAll().as('n'));
        if (overdue) q = q.where('deadline', '<', slot('now'));
        return sql`(${q})`;
      });
      return sql<number>`cast(${sql.join(terms, sql` + `)} as integer)`;
    };
    return prepare(
      db.selectNoFrom([measure('todo', false).as('todo'), measure('done', false).as('done'), measure('todo', true).as('overdue')]),
      { planPerRun: planPerRun(shape) },
    );
  }

  /**
   * What a calendar feed shows changes only when this does (decision 088): how many open tasks
   * with a deadline the viewer sees (of one board, or all) and the latest `updated_at` among them,
   * read from the same parts as a list (one per person, open and dated: index ranges); and the
   * viewer's memberships (how many, the latest added, the latest change of those boards), so
   * joining, leaving or renaming a board changes it too. A task leaving the set (done, deleted,
   * moved away, reassigned) lowers the count; one entering it raises the count or the latest
   * `updated_at`; an edit raises the sum of the versions (every write adds one to its task's).
   */
  function buildFeedStamp(board: boolean) {
    const terms = peopleOf(DEFAULT_VIEW, false, board).map((person) =>
      partTasks({ person, status: 'todo', dated: true }, { view: DEFAULT_VIEW, board, status: false, priority: false, label: 'none', text: 'none' }).select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.max('updatedAt').as('latest'),
        eb.fn.sum<number>('version').as('versions'),
      ]),
    );
    const parts = terms.reduce((union, next) => union.unionAll(next));
    return prepare<Args, { n: number; latest: string | null; versions: number | null; boards: number; joined: string | null; changed: string | null }>(
      db
        .selectFrom(parts.as('p'))
        .select([
          sql<number>`cast(sum(p.n) as integer)`.as('n'),
          sql<string | null>`max(p.latest)`.as('latest'),
          sql<number | null>`cast(sum(p.versions) as integer)`.as('versions'),
          sql<number>`cast((select count(*) from board_members m where m.user_id = ${slot('userId')}) as integer)`.as('boards'),
          sql<string | null>`(select max(m.added_at) from board_members m where m.user_id = ${slot('userId')})`.as('joined'),
          sql<string | null>`(select max(b.updated_at) from board_members m join boards b on b.id = m.board_id where m.user_id = ${slot('userId')})`.as('changed'),
        ]),
    );
  }
  const feedStamps = { all: buildFeedStamp(false), board: buildFeedStamp(true) };

  const lists = new Map<string, Prepared<Args, TaskRowValues>>();
  const counts = new Map<string, Prepared<Args, { todo: number; done: number; overdue: number }>>();
  // The label's board, whether the viewer is an active member of it, and how many tasks carry it (up to one past the most a page starts from).
  const labelFacts = prepare<Args, { boardId: string; member: number; hits: number }>(
    db
      .selectFrom('labels as l')
      .select([
        'l.boardId',
        sql<number>`case when ${onMyBoard(sql.ref('l.boardId'))} then 1 else 0 end`.as('member'),
        sql<number>`cast((select count(*) from (select 1 from task_labels where label_id = l.id limit ${LABEL_DRIVEN_MAX + 1}) m) as integer)`.as('hits'),
      ])
      .where('l.id', '=', slot('label')),
  );
  /** SQLite: the keys of up to `cap` tasks matching the text (`fts` slot, an FTS5 phrase), from the FTS5 index. */
  const ftsMatches = prepare<Args, [number]>(
    db
      .$extendTables<{ tasksFts: { rowid: number } }>()
      .selectFrom('tasksFts')
      .select('rowid')
      .where(sql<SqlBool>`tasks_fts match ${slot('fts')}`)
      .limit(slot('cap')),
    { rowsAsArrays: true },
  );

  /**
   * PostgreSQL: the planner's estimates of the tasks matching the text (`pattern` slot) and of
   * all tasks, from one `EXPLAIN` (nothing is read): the two branches of a UNION ALL.
   */
  const trigramEstimate =
    dialect === 'postgres'
      ? prepare<Args, [unknown]>(
          {
            compile: () =>
              sql`explain (format json) ${db
                .selectFrom('tasks as t')
                .select(sql.lit(1).as('n'))
                .where(textCondition(dialect, 't', 'trigram'))
                .unionAll(db.selectFrom('tasks').select(sql.lit(1).as('n')))}`.compile(db),
          },
          { rowsAsArrays: true, planPerRun: true },
        )
      : undefined;

  /** Undefined if the plan is not the expected one (the text is then tested on the viewer's rows). */
  async function estimateMatches(ex: Executor, pattern: string): Promise<{ matches: number; rows: number } | undefined> {
    if (trigramEstimate === undefined) return undefined;
    const { rows } = await trigramEstimate.execute(ex, { pattern });
    type Explained = [{ Plan?: { Plans?: { 'Plan Rows'?: number }[] } }] | undefined;
    const [text, all] = (rows[0]?.[0] as Explained)?.[0]?.Plan?.Plans ?? [];
    const matches = text?.['Plan Rows'];
    const total = all?.['Plan Rows'];
    return matches === undefined || total === undefined ? undefined : { matches, rows: total };
  }
  /** PostgreSQL: the ids of up to `cap` tasks matching the text (`pattern` slot), from the trigram index. */
  const trigramMatches = prepare<Args, [string]>(
    db.selectFrom('tasks as t').select('t.id').where(textCondition(dialect, 't', 'trigram')).limit(slot('cap')),
    { rowsAsArrays: true, planPerRun: true },
  );

  /**
   * The text index's matches in the whole table, as `textDriven`'s `matches` slot, when there are
   * at most `search.maxHits` of them; undefined when there are more, or when PostgreSQL's
   * estimate already says the word is common: the text is then tested on the viewer's rows.
   */
  async function indexMatches(q: string, search: TextSearch, ex: Executor): Promise<string | string[] | undefined> {
    const cap = search.maxHits + 1;
    if (dialect === 'sqlite') {
      const { rows } = await ftsMatches.execute(ex, { fts: ftsPhrase(q), cap });
      return rows.length < cap ? JSON.stringify(rows.map(([key]) => key)) : undefined;
    }
    // The planner's estimate first: a common word's matches are not read at all. Its estimate of
    // a word rarer than its statistics can tell is the same for 100 matches and for 5,000, so the
    // matches are then read, up to `cap`.
    const pattern = likePattern(q);
    const estimate = await estimateMatches(ex, pattern);
    if (estimate === undefined || !startFromTrigrams(estimate.matches, estimate.rows, search.limit)) return undefined;
    const { rows } = await trigramMatches.execute(ex, { pattern, cap });
    return rows.length < cap ? rows.map(([id]) => id) : undefined;
  }

  /**
   * The parameters of a filter and how its text is matched (may ask the text index or the
   * planner first, `indexMatches`). `search` null (counts) always tests the text on the viewer's
   * own rows: a count must visit every match, and a common word matches a share of the whole
   * table, while the viewer's rows do not grow with it.
   */
  async function plan(
    viewer: Viewer,
    filter: TaskFilter,
    ex: Executor,
    search: TextSearch | null,
    labelFirst: 'always' | 'few',
  ): Promise<{ shape: Shape; args: Args } | undefined> {
    const args: Args = { userId: viewer.userId, email: viewer.email };
    let label: LabelMode = 'none';
    let board = filter.board;
    if (filter.label !== undefined) {
      args.label = filter.label;
      label = 'driven';
      const { rows } = await labelFacts.execute(ex, { label: filter.label, userId: viewer.userId });
      const facts = rows[0];
      // A label's tasks are all on its board (a move drops a task's labels): an unknown label,
      // or another board than the one asked for, matches nothing.
      if (facts === undefined || (board !== undefined && board !== facts.boardId)) return undefined;
      if (labelFirst === 'few' && facts.hits > LABEL_DRIVEN_MAX && facts.member === 1) {
        // Many tasks carry it, and the viewer sees all of its board's: that board's index, tested.
        label = 'probe';
        board = facts.boardId;
      }
    }
    // Rows read from the label's entries are few or all needed: their text is tested on them.
    const useIndex = search !== null && label !== 'driven';
    let text: TextMode = 'none';
    if (filter.q !== undefined) {
      args.q = filter.q;
      // Trigrams are of code points (FTS5 and pg_trgm alike), not UTF-16 units.
      const long = useIndex && Array.from(filter.q).length >= TRIGRAM;
      const matches = long ? await indexMatches(filter.q, search, ex) : undefined;
      text = matches === undefined ? 'scan' : dialect === 'postgres' ? 'trigram' : 'fts';
      if (matches !== undefined) args.matches = matches;
    }
    if (board !== undefined) args.board = board;
    if (filter.status !== undefined) args.status = filter.status;
    if (filter.priority !== undefined) args.priorityRank = PRIORITY_RANK[filter.priority];
    return {
      shape: {
        view: filter.view,
        board: board !== undefined,
        status: filter.status !== undefined,
        priority: filter.priority !== undefined,
        label,
        text,
      },
      args,
    };
  }

  const keyOf = (shape: object) => JSON.stringify(shape);

  return {
    async list(viewer: Viewer, options: ListOptions, ex: Executor = db): Promise<TaskRowValues[]> {
      const paged = options.limit !== undefined && options.whole !== true;
      const newestPage = options.sort === 'newest' && paged;
      const indexOrder = paged;
      const search: TextSearch = { maxHits: newestPage ? FTS_MAX_HITS_NEWEST_PAGE : FTS_MAX_HITS, limit: paged ? options.limit : undefined };
      const planned = await plan(viewer, options, ex, search, indexOrder ? 'few' : 'always');
      if (planned === undefined) return [];
      const { shape, args } = planned;
      const listShape: ListShape = { ...shape, ...keysetOf(options.sort, options.after), limit: options.limit !== undefined, paged };
      if (options.after !== undefined) Object.assign(args, afterArgs(options.sort, options.after));
      if (options.limit !== undefined) args.limit = options.limit;
      const key = keyOf(listShape);
      let query = lists.get(key);
      if (query === undefined) {
        query = buildList(listShape);
        lists.set(key, query);
      }
      return (await query.execute(ex, args)).rows;
    },

    /** See `buildFeedStamp`: `board` narrows it to one board the viewer is an active member of (the caller checks). */
    async feedStamp(viewer: Viewer, board: string | undefined, ex: Executor = db): Promise<string> {
      const args: Args = { userId: viewer.userId, email: viewer.email, ...(board === undefined ? {} : { board }) };
      const row = (await (board === undefined ? feedStamps.all : feedStamps.board).execute(ex, args)).rows[0];
      return JSON.stringify([row?.n ?? 0, row?.latest ?? null, row?.versions ?? 0, row?.boards ?? 0, row?.joined ?? null, row?.changed ?? null]);
    },

    /** To do, done and overdue (open with a deadline before `now`) among the filtered tasks. */
    async counts(viewer: Viewer, filter: TaskFilter, now: string, ex: Executor = db): Promise<TaskCounts> {
      const planned = await plan(viewer, filter, ex, null, 'always');
      if (planned === undefined) return { todo: 0, done: 0, overdue: 0 };
      const { shape, args } = planned;
      args.now = now;
      const key = keyOf(shape);
      let query = counts.get(key);
      if (query === undefined) {
        query = buildCounts(shape);
        counts.set(key, query);
      }
      const row = (await query.execute(ex, args)).rows[0];
      return { todo: row?.todo ?? 0, done: row?.done ?? 0, overdue: row?.overdue ?? 0 };
    },
  };
}
