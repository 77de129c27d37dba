import { sql, type Expression, type InferResult, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { PRIORITY_RANK, STATUSES, type Priority, type TaskSort, type TaskStatus, type TaskView } from '#shared/constants.ts';
import type { TaskCounts } from '#shared/schemas/tasks.ts';
import type { Dialect } from '../db/connect.ts';
import { prepare, slot, type Executor, type Prepared, type ValuesOf } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/**
 * The board's list and count queries: visibility, `view`, filters, text search, three sort
 * orders and keyset paging, compiled once per shape (db/prepared.ts).
 *
 * Visibility is index range scans merged with UNION ALL (created by me; assigned to me but
 * created by someone else, so nothing appears twice) instead of an OR that would scan the
 * table. A page reads each part in the order of an index and cuts it at the page size, so it
 * reads at most (parts × limit) rows whoever asks and however many tasks they have: newest
 * first from the (person, status, created_at, id) indexes, one part per person and status;
 * sort=deadline from the (person, status, deadline, created_at desc, id desc) indexes, with the
 * dated and the undated tasks as separate parts. The assignee's part of a page leaves out my own
 * tasks only after the cut (see `partsOf`), so a list of tasks one assigns to oneself, the usual
 * case for a person alone, costs the same as any other. sort=priority, and lists without a
 * limit, sort the viewer's rows, which does not grow with the table. A page of the newest tasks
 * of any status is read as one part per status too, so a text search on the viewer's rows
 * stops after its page instead of testing all of them.
 *
 * Text search (`q`, a case-insensitive substring of title, work title, description or assignee):
 * - PostgreSQL: `ILIKE '%q%'` per column, served by the pg_trgm GIN index; the planner picks
 *   between it and the viewer's index ranges by estimated selectivity. Below 3 characters a
 *   trigram index cannot help, so `strpos(lower(…))` is tested on the viewer's rows only.
 *   These statements are planned per run (db/prepared.ts): the best plan depends on the word.
 * - SQLite: the FTS5 trigram index first counts the matches in the whole table (stopping
 *   early). Few matches (≤ FTS_MAX_HITS, or ≤ FTS_MAX_HITS_NEWEST_PAGE for a page of the newest,
 *   which stops early without it): the query starts from the index and keeps the visible
 *   ones. Many matches, or fewer than 3 characters: the text is tested on the viewer's rows
 *   only (their index ranges), which is cheaper than visiting every match in the table. Both
 *   paths test the same `instr(lower(…))` condition, so they answer the same rows; SQLite's
 *   `lower()` folds ASCII letters only.
 * - Counts, on both databases, test the text on the viewer's rows: a count visits every match,
 *   and the matches of a common word grow with the table while the viewer's rows do not.
 *   Without a text or priority filter a count reads index entries only (`buildCounts`).
 * Never a `LIKE '%…%'` over the whole table.
 */

export const TASK_COLUMNS = [
  'id',
  'workTitle',
  'taskTitle',
  'assigneeEmail',
  'createdBy',
  'deadline',
  'priority',
  'status',
  'description',
  'createdAt',
  'updatedAt',
  'version',
] as const;

type TaskColumns = typeof TASK_COLUMNS;
type Prefixed<T extends readonly string[], P extends string> = { readonly [K in keyof T]: `${P}${T[K] & string}` };

/** The select list of every query whose rows are TaskRowValues (`t`: tasks, `u`: its creator). */
export const TASK_SELECT = [
  // `map` loses the tuple's order in its type; the prefix is the only change.
  ...(TASK_COLUMNS.map((c) => `t.${c}` as const) as unknown as Prefixed<TaskColumns, 't.'>),
  'u.fullName as assignor',
  'u.email as assignorEmail',
] as const;

/** Tasks with their creator (the assignor), selected as TASK_SELECT: the query every task row's type comes from. */
export function selectTasks(db: Kysely<DB>) {
  return db.selectFrom('tasks as t').innerJoin('users as u', 'u.id', 't.createdBy').select(TASK_SELECT);
}

/**
 * A task row of the board's queries, read as an array (prepare's `rowsAsArrays`): the values of
 * TASK_SELECT in that order (TASK_COLUMNS, then the creator's full name and e-mail), each typed
 * as Kysely types it in `selectTasks`. Only `toTaskJson` (tasks-repository.ts) reads it.
 */
export type TaskRowValues = ValuesOf<InferResult<ReturnType<typeof selectTasks>>[number], typeof TASK_SELECT>;

/** A task row written and read back (`returning(TASK_COLUMNS)`), as an array. */
export type TaskColumnValues = ValuesOf<Selectable<DB['tasks']>, TaskColumns>;

/** Who is asking: visibility is "created by me" or "assigned to my e-mail". */
export interface Viewer {
  userId: string;
  email: string;
}

export interface TaskFilter {
  view: TaskView;
  status?: TaskStatus | undefined;
  priority?: Priority | undefined;
  /** Search text, 1–100 characters. */
  q?: string | undefined;
}

/** A keyset position: the sort key of the last row of the previous page. */
export interface SortPosition {
  createdAt: string;
  id: string;
  /** sort=deadline: the row's deadline (null: it had none). */
  deadline?: string | null;
  /** sort=priority: the row's priority. */
  priority?: Priority;
}

export interface ListOptions extends TaskFilter {
  sort: TaskSort;
  after?: SortPosition | undefined;
  /** Maximum rows; absent means all. */
  limit?: number | undefined;
}

/** Above this many matches in the whole table, SQLite tests the text on the viewer's rows instead. */
export const FTS_MAX_HITS = 2000;
/**
 * The same for a page of the newest tasks: the viewer's rows are then read in index order and the
 * reading stops after one page of matches, so the index pays off only for rarer words.
 */
export const FTS_MAX_HITS_NEWEST_PAGE = 200;
/** Shorter text has no trigram, so no text index can find it. */
const TRIGRAM = 3;

type Args = Record<string, unknown>;
type Columns = readonly (typeof TASK_COLUMNS)[number][];
/** How the text condition is evaluated (see the comment at the top). */
type TextMode = 'none' | 'scan' | 'trigram' | 'fts';
interface Shape {
  view: TaskView;
  status: boolean;
  priority: boolean;
  text: TextMode;
}
/**
 * Whose tasks a part reads: those I created, those assigned to me, those assigned to me by
 * someone else (tested in the query), or those assigned to me, cut to a page and then without
 * mine (see `partsOf`).
 */
type Person = 'mine' | 'assigned' | 'assignedOnly' | 'assignedThenNotMine';
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
interface ListShape extends Shape {
  sort: TaskSort;
  after: 'none' | 'value' | 'null';
  limit: boolean;
}

const SEARCHED = ['taskTitle', 'workTitle', 'description', 'assigneeEmail'] as const;
const PRIORITY_RANK_SQL = (ref: RawBuilder<unknown>) =>
  sql<number>`(case ${ref} when 'urgent' then 0 when 'high' then 1 when 'normal' then 2 else 3 end)`;

/** `%`, `_` and the escape character itself, escaped for a LIKE pattern (PostgreSQL's default escape is `\`). */
const likePattern = (q: string) => `%${q.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The text as one FTS5 phrase: with the trigram tokenizer, a substring match. */
const ftsPhrase = (q: string) => `"${q.replaceAll('"', '""')}"`;

export function createTaskListQueries(db: Kysely<DB>, dialect: Dialect) {
  const col = (prefix: string, name: string) => sql.ref(prefix === '' ? name : `${prefix}.${name}`);

  function textCondition(prefix: string, mode: TextMode): Expression<SqlBool> {
    const tests = SEARCHED.map((name) => {
      const ref = col(prefix, name);
      // The e-mail is indexed as lower(…) (already lower-case when stored), so the trigram index
      // never serves the visibility test `assignee_email = $email` (see migration 0007).
      if (mode === 'trigram') return name === 'assigneeEmail' ? sql<SqlBool>`lower(${ref}) ilike ${slot('pattern')}` : sql<SqlBool>`${ref} ilike ${slot('pattern')}`;
      return dialect === 'postgres'
        ? sql<SqlBool>`strpos(lower(${ref}), lower(${slot('q')})) > 0`
        : sql<SqlBool>`instr(lower(${ref}), lower(${slot('q')})) > 0`;
    });
    return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
  }

  /** Filters every query shape shares, on the columns of `prefix` ('' inside a branch). */
  function filters(prefix: string, shape: Shape): Expression<SqlBool>[] {
    const out: Expression<SqlBool>[] = [];
    if (shape.status) out.push(sql<SqlBool>`${col(prefix, 'status')} = ${slot('status')}`);
    if (shape.priority) out.push(sql<SqlBool>`${col(prefix, 'priority')} = ${slot('priority')}`);
    if (shape.text !== 'none') out.push(textCondition(prefix, shape.text));
    return out;
  }

  /** The ORDER BY terms of a sort, on the columns of `prefix`. */
  function orderTerms(prefix: string, sort: TaskSort): RawBuilder<unknown>[] {
    const tail = [sql`${col(prefix, 'createdAt')} desc`, sql`${col(prefix, 'id')} desc`];
    if (sort === 'deadline') {
      return [sql`(case when ${col(prefix, 'deadline')} is null then 1 else 0 end)`, sql`${col(prefix, 'deadline')} asc`, ...tail];
    }
    if (sort === 'priority') return [PRIORITY_RANK_SQL(col(prefix, 'priority')), ...tail];
    return tail;
  }

  /**
   * Rows strictly after the keyset position, in the sort's order. `dated`: the part of a
   * sort=deadline page it applies to (see `Part`); undefined: the whole sort order.
   */
  function afterCondition(prefix: string, shape: ListShape, dated?: boolean): Expression<SqlBool> | undefined {
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
      const rank = PRIORITY_RANK_SQL(col(prefix, 'priority'));
      return sql<SqlBool>`(${rank} > ${slot('afterRank')} or (${rank} = ${slot('afterRank')} and ${older}))`;
    }
    return older;
  }

  /** The tasks of one part (see `Part`) that pass the filters, nothing selected yet. */
  function partTasks(part: Part, shape: Shape) {
    let q = db.selectFrom('tasks');
    if (part.person === 'mine') q = q.where('createdBy', '=', slot('userId'));
    else q = q.where('assigneeEmail', '=', slot('email'));
    if (part.status !== undefined) q = q.where('status', '=', sql.lit(part.status));
    if (part.dated !== undefined) q = q.where('deadline', part.dated ? 'is not' : 'is', null);
    if (part.person === 'assignedOnly') q = q.where('createdBy', '<>', slot('userId'));
    for (const condition of filters('', shape)) q = q.where(condition);
    return q;
  }

  /** One part of the visible set, as its own derived table, cut to a page when `list` has a limit. */
  function branch(part: Part, shape: Shape, columns: Columns, list?: ListShape) {
    let q = partTasks(part, shape).select(columns);
    if (list !== undefined) {
      const after = afterCondition('', list, part.dated);
      if (after !== undefined) q = q.where(after);
      if (list.limit) {
        // Within a dated or undated part, the deadline order is the index's own.
        const terms = part.dated === true ? [sql`deadline asc`, ...orderTerms('', 'newest')] : orderTerms('', part.dated === false ? 'newest' : list.sort);
        for (const term of terms) q = q.orderBy(term);
        q = q.limit(slot('limit'));
      }
    }
    return q;
  }

  /**
   * The parts a query of this shape reads (see the top): one per person, and for a page in an
   * order an index holds (newest, deadline) also one per status and, for sort=deadline, dated and
   * undated tasks apart. The assignee's part of a page is cut first and only then loses the tasks
   * I created myself: every such task is also in my own part, and a task assigned to me by
   * someone else that belongs on the page is among the first `limit` assigned to me. Testing it
   * before the cut would read every task I assigned to myself (all of them, for one person
   * keeping their own list) to find the few others.
   */
  function partsOf(shape: Shape, list?: ListShape): Part[] {
    const indexOrder = list !== undefined && list.limit && list.sort !== 'priority';
    const statuses = indexOrder && !shape.status ? STATUSES : [undefined];
    // After an undated position, only undated tasks are left.
    const datedness = indexOrder && list.sort === 'deadline' ? (list.after === 'null' ? [false] : [true, false]) : [undefined];
    const people: Person[] =
      shape.view === 'created-by-me' ? ['mine'] : shape.view === 'assigned-to-me' ? ['assigned'] : ['mine', indexOrder ? 'assignedThenNotMine' : 'assignedOnly'];
    return people.flatMap((person) => statuses.flatMap((status) => datedness.map((dated) => ({ person, status, dated }))));
  }

  /** The visible set for a view: its parts (`partsOf`) merged without duplicates. */
  function visible(shape: Shape, columns: Columns, list?: ListShape) {
    const read = (part: Part) => {
      const rows = db.selectFrom(branch(part, shape, columns, list).as('b')).selectAll();
      return part.person === 'assignedThenNotMine' ? rows.where('b.createdBy', '<>', slot('userId')) : rows;
    };
    // At least one part: people and statuses are never empty.
    return partsOf(shape, list)
      .map(read)
      .reduce((union, next) => union.unionAll(next));
  }

  /** SQLite, few matches: start from the FTS5 index, keep the visible rows. */
  function ftsDriven(shape: Shape) {
    const visibility =
      shape.view === 'created-by-me'
        ? sql<SqlBool>`t.created_by = ${slot('userId')}`
        : shape.view === 'assigned-to-me'
          ? sql<SqlBool>`t.assignee_email = ${slot('email')}`
          : sql<SqlBool>`(t.created_by = ${slot('userId')} or t.assignee_email = ${slot('email')})`;
    // CROSS JOIN fixes the join order in SQLite: index matches first, then their rows.
    let q = db
      .$extendTables<{ tasksFts: { rowid: number }; taskSearchKeys: { key: number; taskId: string } }>()
      .selectFrom('tasksFts')
      .crossJoin('taskSearchKeys as k')
      .crossJoin('tasks as t')
      .where(sql<SqlBool>`tasks_fts match ${slot('fts')}`)
      .whereRef('k.key', '=', 'tasksFts.rowid')
      .whereRef('t.id', '=', 'k.taskId')
      .where(visibility);
    for (const condition of filters('t', shape)) q = q.where(condition);
    return q;
  }

  function buildList(shape: ListShape): Prepared<Args, TaskRowValues> {
    let q =
      shape.text === 'fts'
        ? db
            .selectFrom(ftsDriven(shape).select(TASK_COLUMNS.map((c) => `t.${c}` as const)).as('t'))
            .innerJoin('users as u', 'u.id', 't.createdBy')
            .select(TASK_SELECT)
        : db.selectFrom(visible(shape, TASK_COLUMNS, shape).as('t')).innerJoin('users as u', 'u.id', 't.createdBy').select(TASK_SELECT);
    if (shape.text === 'fts') {
      const after = afterCondition('t', shape);
      if (after !== undefined) q = q.where(after);
    }
    for (const term of orderTerms('t', shape.sort)) q = q.orderBy(term);
    if (shape.limit) q = q.limit(slot('limit'));
    return prepare<Args, TaskRowValues>(q, { rowsAsArrays: true, planPerRun: shape.text !== 'none' });
  }

  /**
   * One row: to do, done and overdue, each the sum of one count per person. A count of one
   * person's tasks of one status (and, for overdue, deadline before now) is a range of their
   * (person, status, deadline) index (migration 0010): no table read, no sorting or grouping of
   * the rows. Filters other than the status test their columns in the table.
   */
  function buildCounts(shape: Shape): Prepared<Args, { todo: number; done: number; overdue: number }> {
    const people: Person[] = shape.view === 'created-by-me' ? ['mine'] : shape.view === 'assigned-to-me' ? ['assigned'] : ['mine', 'assignedOnly'];
    const measure = (status: TaskStatus, overdue: boolean) => {
      const terms = people.map((person) => {
        let q = partTasks({ person, status, dated: undefined }, shape).select((eb) => eb.fn.countAll().as('n'));
        if (overdue) q = q.where('deadline', '<', slot('now'));
        return sql`(${q})`;
      });
      return sql<number>`cast(${sql.join(terms, sql` + `)} as integer)`;
    };
    return prepare(
      db.selectNoFrom([measure('todo', false).as('todo'), measure('done', false).as('done'), measure('todo', true).as('overdue')]),
      { planPerRun: shape.text !== 'none' },
    );
  }

  const lists = new Map<string, Prepared<Args, TaskRowValues>>();
  const counts = new Map<string, Prepared<Args, { todo: number; done: number; overdue: number }>>();
  const ftsHits = prepare<Args, { hits: number }>(
    db
      .selectFrom(sql`(select rowid from tasks_fts where tasks_fts match ${slot('fts')} limit ${FTS_MAX_HITS + 1})`.as('m'))
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('hits')),
  );

  /**
   * The parameters of a filter and how its text is matched (may ask the FTS5 index first).
   * `maxHits`: the most matches in the whole table for which SQLite starts from the FTS5 index;
   * null (counts) always tests the text on the viewer's own rows: a count must visit every
   * match, and a common word matches a share of the whole table, while the viewer's rows do not
   * grow with it.
   */
  async function plan(viewer: Viewer, filter: TaskFilter, ex: Executor, maxHits: number | null): Promise<{ shape: Shape; args: Args }> {
    const useIndex = maxHits !== null;
    const args: Args = { userId: viewer.userId, email: viewer.email };
    let text: TextMode = 'none';
    if (filter.q !== undefined) {
      args.q = filter.q;
      // Trigrams are of code points (FTS5 and pg_trgm alike), not UTF-16 units.
      const long = useIndex && Array.from(filter.q).length >= TRIGRAM;
      if (dialect === 'postgres') {
        text = long ? 'trigram' : 'scan';
        if (long) args.pattern = likePattern(filter.q);
      } else {
        text = 'scan';
        if (long) {
          args.fts = ftsPhrase(filter.q);
          const { rows } = await ftsHits.execute(ex, { fts: args.fts });
          if ((rows[0]?.hits ?? 0) <= maxHits) text = 'fts';
        }
      }
    }
    if (filter.status !== undefined) args.status = filter.status;
    if (filter.priority !== undefined) args.priority = filter.priority;
    return {
      shape: { view: filter.view, status: filter.status !== undefined, priority: filter.priority !== undefined, text },
      args,
    };
  }

  const keyOf = (shape: object) => JSON.stringify(shape);

  return {
    async list(viewer: Viewer, options: ListOptions, ex: Executor = db): Promise<TaskRowValues[]> {
      const newestPage = options.sort === 'newest' && options.limit !== undefined;
      const { shape, args } = await plan(viewer, options, ex, newestPage ? FTS_MAX_HITS_NEWEST_PAGE : FTS_MAX_HITS);
      const after = options.after;
      const listShape: ListShape = {
        ...shape,
        sort: options.sort,
        after: after === undefined ? 'none' : options.sort === 'deadline' && after.deadline === null ? 'null' : 'value',
        limit: options.limit !== undefined,
      };
      if (after !== undefined) {
        args.afterCreatedAt = after.createdAt;
        args.afterId = after.id;
        if (listShape.sort === 'deadline' && after.deadline !== null && after.deadline !== undefined) args.afterDeadline = after.deadline;
        if (listShape.sort === 'priority') args.afterRank = PRIORITY_RANK[after.priority ?? 'low'];
      }
      if (options.limit !== undefined) args.limit = options.limit;
      const key = keyOf(listShape);
      let query = lists.get(key);
      if (query === undefined) {
        query = buildList(listShape);
        lists.set(key, query);
      }
      return (await query.execute(ex, args)).rows;
    },

    /** To do, done and overdue (open with a deadline before `now`) among the filtered tasks. */
    async counts(viewer: Viewer, filter: TaskFilter, now: string, ex: Executor = db): Promise<TaskCounts> {
      const { shape, args } = await plan(viewer, filter, ex, null);
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

export type TaskListQueries = ReturnType<typeof createTaskListQueries>;
