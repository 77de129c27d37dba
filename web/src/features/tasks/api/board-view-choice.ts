import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';

/*
 * How a board (or "All my tasks") is seen: as its columns (`board`), a table, a calendar of
 * deadlines or a timeline. The choice is the address's `?view=` (the board's own view, `board`,
 * is left out), and the device remembers the last one per board: a board opened without
 * `?view=` shows it. (`?view=` once held "whose tasks"; board-filter.ts reads such old addresses
 * and rewrites them to `?show=`.)
 */

export const BOARD_VIEWS = ['board', 'table', 'calendar', 'timeline'] as const;
export type BoardView = (typeof BOARD_VIEWS)[number];

export const VIEW_PARAM = 'view';
/** The device's remembered view of a board ("" for "All my tasks"). */
export const viewStorageKey = (boardId: string) => `taskwise-view:${boardId || 'all'}`;

const isBoardView = (raw: string | null): raw is BoardView => BOARD_VIEWS.includes(raw as BoardView);

function remembered(boardId: string): BoardView | null {
  try {
    const stored = localStorage.getItem(viewStorageKey(boardId));
    return isBoardView(stored) ? stored : null;
  } catch {
    // Storage refused (a private window's quota, a policy): nothing remembered.
    return null;
  }
}

function remember(boardId: string, view: BoardView): void {
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

/**
 * The view on screen and the way to change it. The address decides when it names a view; else
 * the device's last choice for the board, written into the address (replacing the entry, so Back
 * leaves the board as before); else the board.
 */
export function useBoardView(boardId: string): [BoardView, (view: BoardView) => void] {
  const [params, setParams] = useSearchParams();
  const fromAddress = params.get(VIEW_PARAM);
  const inAddress = isBoardView(fromAddress) ? fromAddress : null;
  const stored = inAddress === null ? remembered(boardId) : null;
  const view: BoardView = inAddress ?? stored ?? 'board';

  useEffect(() => {
    if (inAddress !== null) remember(boardId, inAddress);
    else if (stored !== null && stored !== 'board') {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(VIEW_PARAM, stored);
          return next;
        },
        { replace: true },
      );
    }
  }, [boardId, inAddress, stored, setParams]);

  const change = useCallback(
    (next: BoardView) => {
      remember(boardId, next);
      setParams((current) => {
        const params = new URLSearchParams(current);
        if (next === 'board') params.delete(VIEW_PARAM);
        else params.set(VIEW_PARAM, next);
        return params;
      });
    },
    [boardId, setParams],
  );
  return [view, change];
}
