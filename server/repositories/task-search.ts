import { sql, type Expression, type SqlBool } from 'kysely';
import { SEARCHED_TASK_FIELDS } from '#shared/constants.ts';
import type { Dialect } from '../db/connect.ts';
import { slot } from '../db/prepared.ts';
import { columnRef, type TaskColumn } from './task-columns.ts';

/**
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
/** Shorter text has no trigram, so no text index can find it. */
export const TRIGRAM = 3;

/** How the text condition is evaluated (see the comment at the top). */
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
