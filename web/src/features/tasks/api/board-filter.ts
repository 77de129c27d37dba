import { DEFAULT_SORT, DEFAULT_VIEW, LIMITS, PRIORITIES, TASK_SORTS, TASK_VIEWS, type Priority, type TaskSort, type TaskView } from '#shared/constants.ts';

/** A list's order: the API's sorts, and a board column's own order (Manual). */
export type BoardSort = TaskSort | 'position';

/** Manual on a board (its columns' own order, the order cards are dragged into); newest on "All my tasks". */
export const defaultSort = (board: string): BoardSort => (board ? 'position' : DEFAULT_SORT);
const BOARD_SORTS: readonly BoardSort[] = [...TASK_SORTS, 'position'];

/** "" is "All Tasks". */
export type PriorityFilter = Priority | '';

/** The API's bounds on `q`: longer text is cut, empty text is no search. */
export const SEARCH_MAX_LENGTH = LIMITS.searchMax;

/**
 * What the board shows: every part lives in the URL (`?priority=&show=&q=&sort=&label=`), so a
 * reload, the back button or a shared link shows the same board. Defaults are left out.
 */
export interface BoardFilter {
  priority: PriorityFilter;
  /** Whose tasks: the API's `view` parameter; `?show=` in the page's address (see SHOW_PARAM). */
  view: TaskView;
  /** Trimmed search text; "" is no search. */
  q: string;
  /** `position` (Manual: the column's own order) exists only on a board, and is its default. */
  sort: BoardSort;
  /** The board on screen (from the address's path, `/boards/:id`); "" is every board ("All my tasks"). */
  board: string;
  /** One of the board's labels (its id); "" is every task. Labels are a board's: none on "All my tasks". */
  label: string;
}

export const DEFAULT_FILTER: BoardFilter = { priority: '', view: DEFAULT_VIEW, q: '', sort: DEFAULT_SORT, board: '', label: '' };

/** Whether the filter leaves tasks out (a priority, whose tasks, a search or a label); the sort and the board do not. */
export function leavesTasksOut(filter: BoardFilter): boolean {
  return filter.priority !== '' || filter.view !== DEFAULT_VIEW || filter.q !== '' || filter.label !== '';
}

const pick = <T extends string>(values: readonly T[], raw: string | null, fallback: T): T =>
  values.includes(raw as T) ? (raw as T) : fallback;

/** Longer than any id the server hands out: anything longer in the address is cut, not sent on. */
const LABEL_ID_MAX_LENGTH = 64;

/** The `?priority=` of the board's URL; anything unknown is "All Tasks". */
export function parsePriorityFilter(raw: string | null): PriorityFilter {
  return pick<PriorityFilter>(PRIORITIES, raw, '');
}

export function normalizeSearch(raw: string | null): string {
  return (raw ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
}

/**
 * The address parameter of "whose tasks" (the API's `view`): `?show=`, because `?view=` names
 * how a board is seen (board, table, calendar, timeline). Addresses written before keep
 * working: a `?view=` holding a whose-tasks value is read when `show` is absent, and the page
 * rewrites it (`fromOldAddress`). Decision 120.
 */
export const SHOW_PARAM = 'show';
const OLD_SHOW_PARAM = 'view';

/** The address's parameter for each part of the filter (the board is the path's). */
const PARAM_OF: Record<Exclude<keyof BoardFilter, 'board'>, string> = { priority: 'priority', view: SHOW_PARAM, q: 'q', sort: 'sort', label: 'label' };

const isTaskView = (raw: string | null): raw is TaskView => TASK_VIEWS.includes(raw as TaskView);

/** Whose tasks the address asks for: `?show=`, else an old address's `?view=` of the same values. */
function whoseTasks(params: URLSearchParams): TaskView {
  const show = params.get(SHOW_PARAM);
  if (show !== null) return pick(TASK_VIEWS, show, DEFAULT_VIEW);
  const old = params.get(OLD_SHOW_PARAM);
  return isTaskView(old) ? old : DEFAULT_VIEW;
}

/**
 * An old address (`?view=assigned-to-me`) written the current way (`?show=assigned-to-me`),
 * other keys kept in place; null when there is nothing to rewrite. A `view` of another value
 * (a board view) is not the filter's and stays.
 */
export function fromOldAddress(params: URLSearchParams): URLSearchParams | null {
  if (!isTaskView(params.get(OLD_SHOW_PARAM))) return null;
  const next = new URLSearchParams();
  for (const [key, value] of params) {
    if (key !== OLD_SHOW_PARAM) next.append(key, value);
    else if (!params.has(SHOW_PARAM) && value !== DEFAULT_VIEW) next.append(SHOW_PARAM, value);
  }
  return next;
}

/** The board's filter from its URL's query (and the board of its path); anything unknown falls back to the default. */
export function parseBoardFilter(params: URLSearchParams, board = ''): BoardFilter {
  return {
    board,
    priority: parsePriorityFilter(params.get('priority')),
    view: whoseTasks(params),
    q: normalizeSearch(params.get('q')),
    sort: board ? pick(BOARD_SORTS, params.get('sort'), defaultSort(board)) : pick<BoardSort>(TASK_SORTS, params.get('sort'), DEFAULT_SORT),
    label: board === '' ? '' : (params.get('label') ?? '').trim().slice(0, LABEL_ID_MAX_LENGTH),
  };
}

/**
 * `params` with the given parts of the filter written in (defaults removed), other keys kept.
 * `board`: the board on screen, whose default sort (Manual) differs from "All my tasks'" one.
 */
export function withFilter(params: URLSearchParams, change: Partial<BoardFilter>, board = ''): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(change)) {
    // The board is the path's, never a query parameter.
    if (key === 'board') continue;
    const param = PARAM_OF[key as keyof typeof PARAM_OF];
    const fallback = key === 'sort' ? defaultSort(board) : DEFAULT_FILTER[key as keyof BoardFilter];
    if (value === '' || value === fallback) next.delete(param);
    else next.set(param, value);
  }
  return next;
}

/** The filter as API query parameters (defaults left out, as the original task-board client sends them). */
export function filterQuery(filter: BoardFilter): Record<string, string | undefined> {
  return {
    priority: filter.priority || undefined,
    view: filter.view === DEFAULT_VIEW ? undefined : filter.view,
    q: filter.q || undefined,
    // Manual order is a column's (`column=&sort=position`): the column's fetcher sends it.
    sort: filter.sort === DEFAULT_SORT || filter.sort === 'position' ? undefined : filter.sort,
    board: filter.board || undefined,
    label: filter.label || undefined,
  };
}

