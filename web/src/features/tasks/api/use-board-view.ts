import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { isBoardView, remember, remembered, VIEW_PARAM, type BoardView } from './board-view-choice.ts';

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
