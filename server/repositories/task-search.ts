import { sql, type Expression, type SqlBool } from 'kysely';
import { SEARCHED_TASK_FIELDS } from '#shared/constants.ts';
import type { Dialect } from '../db/connect.ts';
import { slot } from '../db/prepared.ts';
import { columnRef, type TaskColumn } from './task-columns.ts';

/**
 * Text search (`q`, a case-insensitive substring of title, work title, description or assignee):
 * - Both databases read the keys of up to one more than FTS_MAX_HITS matches in the whole
 *   table (FTS_MAX_HITS_NEWEST_PAGE for a page of the newest, whose viewer's rows stop after a
 *   page anyway) from their text index. Few: the list starts from those rows, keeps the visible
 *   ones and tests their text again (`textDriven`, task-list-queries.ts). Many, or fewer than 3
 *   characters: the text is tested on the viewer's rows only (their index ranges, read in index
 *   order, stopping after a page), which is cheaper than visiting every match in the table.
 *   Every path tests the same lower-cased substring condition, so they answer the same rows.
 * - PostgreSQL: pg_trgm's GIN index (`ILIKE '%q%'` per column); on the viewer's rows
 *   `strpos(lower(…))`, which no index serves. Before reading any match the planner estimates how
 *   many rows of the whole table match (`EXPLAIN` of the text condition alone), and a common
 *   word (`startFromTrigrams`) goes straight to the viewer's rows: reading its matches would cost
 *   more than the page. The choice is made here and not left to the planner inside each part of
 *   the visible set: there it ANDed a common word's trigram bitmap (83,000 rows at 1,000,000)
 *   with the viewer's range, 18 ms, and read all of a board's done tasks for a rare word,
 *   estimating the board (a join parameter) at an average board's size (docs/performance.md).
 *   These statements are planned per run (db/prepared.ts): the best plan depends on the word.
 * - SQLite: the FTS5 trigram index (its keys lead to tasks through task_search_keys);
 *   `instr(lower(…))` on rows. SQLite's `lower()` folds ASCII letters only.
 * - Counts, on both databases, test the text on the viewer's rows: a count visits every match,
 *   and the matches of a common word grow with the table while the viewer's rows do not.
 *   Without a text or priority filter a count reads index entries only (`buildCounts`,
 *   task-list-queries.ts).
 * Never a `LIKE '%…%'` over the whole table.
 */

/** Above this many matches in the whole table, SQLite tests the text on the viewer's rows instead. */
export const FTS_MAX_HITS = 2000;
/**
 * The same for a page of the newest tasks: the viewer's rows are then read in index order and the
 * reading stops after one page of matches, so the index pays off only for rarer words.
 */
export const FTS_MAX_HITS_NEWEST_PAGE = 200;
/**
 * PostgreSQL: whether a list may start from the trigram index, from the planner's estimates of
 * the rows matching the text in the whole table (`matches`) and of the table's rows (`rows`).
 * Starting from the index reads about `matches` rows; a page read in index order reads about
 * `limit × rows / matches` of the viewer's rows before it has `limit` matches (a list without a
 * page size: FTS_MAX_HITS). The estimate only rules out common words, whose matches would cost
 * more to read than they are worth; the matches of the others are then counted (see the top).
 */
export function startFromTrigrams(matches: number, rows: number, limit: number | undefined): boolean {
  return matches * matches <= (limit ?? FTS_MAX_HITS) * rows;
}

/** Shorter text has no trigram, so no text index can find it. */
export const TRIGRAM = 3;

/**
 * How the text condition is evaluated (see the comment at the top): `scan` tests it on the
 * viewer's rows; `trigram` (PostgreSQL) and `fts` (SQLite) start from the text index.
 */
export type TextMode = 'none' | 'scan' | 'trigram' | 'fts';

/** The column each searched field of a task is stored in. */
const SEARCHED_COLUMN: Readonly<Record<(typeof SEARCHED_TASK_FIELDS)[number], TaskColumn>> = {
  taskTitle: 'taskTitle',
  workTitle: 'workTitle',
  description: 'description',
  assignee: 'assigneeEmail',
};
const SEARCHED = SEARCHED_TASK_FIELDS.map((field) => SEARCHED_COLUMN[field]);

/** `%`, `_` and the escape character itself, escaped for a LIKE pattern (PostgreSQL's default escape is `\`). */
export const likePattern = (q: string) => `%${q.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The text as one FTS5 phrase: with the trigram tokenizer, a substring match. */
export const ftsPhrase = (q: string) => `"${q.replaceAll('"', '""')}"`;

/** The text condition on the searched columns of `prefix` ('' inside a branch), by `mode`. */
export function textCondition(dialect: Dialect, prefix: string, mode: TextMode): Expression<SqlBool> {
  const tests = SEARCHED.map((name) => {
    const ref = columnRef(prefix, name);
    // The e-mail is indexed as lower(…) (already lower-case when stored), so the trigram index
    // never serves the visibility test `assignee_email = $email` (see migration 0007).
    if (mode === 'trigram') return name === 'assigneeEmail' ? sql<SqlBool>`lower(${ref}) ilike ${slot('pattern')}` : sql<SqlBool>`${ref} ilike ${slot('pattern')}`;
    return dialect === 'postgres'
      ? sql<SqlBool>`strpos(lower(${ref}), lower(${slot('q')})) > 0`
      : sql<SqlBool>`instr(lower(${ref}), lower(${slot('q')})) > 0`;
  });
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}
