/*
 * How a board (or "All my tasks") is seen: as its columns (`board`), a table, a calendar of
 * deadlines or a timeline. The choice is the address's `?view=` (the board's own view, `board`,
 * is left out), and the device remembers the last one per board: a board opened without
 * `?view=` shows it. (`?view=` once held "whose tasks"; board-filter.ts reads such old addresses
 * and rewrites them to `?show=`.)
 *
 * This module is read before the first render (app/routes.tsx preloads the view's chunk), so it
 * stays free of React; the hook that follows the address is use-board-view.ts.
 */

export const BOARD_VIEWS = ['board', 'table', 'calendar', 'timeline'] as const;
export type BoardView = (typeof BOARD_VIEWS)[number];

export const VIEW_PARAM = 'view';
/** The device's remembered view of a board ("" for "All my tasks"). */
export const viewStorageKey = (boardId: string) => `taskwise-view:${boardId || 'all'}`;

export const isBoardView = (raw: string | null): raw is BoardView => BOARD_VIEWS.includes(raw as BoardView);

export function remembered(boardId: string): BoardView | null {
  try {
    const stored = localStorage.getItem(viewStorageKey(boardId));
    return isBoardView(stored) ? stored : null;
  } catch {
    // Storage refused (a private window's quota, a policy): nothing remembered.
    return null;
  }
}

export function remember(boardId: string, view: BoardView): void {
  try {
    localStorage.setItem(viewStorageKey(boardId), view);
  } catch {
    // Not remembered; still shown.
  }
}

/** The view a page opens with, before anything renders: the address's, else the device's last for the board, else the board. */
export function openingView(boardId: string, search: string): BoardView {
  const fromAddress = new URLSearchParams(search).get(VIEW_PARAM);
  return isBoardView(fromAddress) ? fromAddress : (remembered(boardId) ?? 'board');
}
