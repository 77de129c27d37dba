import type { QueryClient } from '@tanstack/react-query';
import type { Board, Member } from '#shared/schemas/boards.ts';
import type { BoardDetail } from './get-board.ts';
import { sortBoards } from './get-boards.ts';
import { boardKeys } from './query-keys.ts';

/*
 * The one writer of boards in the cache, after the viewer's own changes and after live events.
 */

/** The board in the switcher's list (added or replaced, in the server's order) and on its detail. */
export function writeBoard(queryClient: QueryClient, board: Board): void {
  queryClient.setQueryData<Board[]>(boardKeys.list(), (boards) => (boards ? sortBoards([...boards.filter((b) => b._id !== board._id), board]) : boards));
  queryClient.setQueryData<BoardDetail>(boardKeys.detail(board._id), (detail) => (detail ? { ...detail, board } : detail));
}

/** The viewer is no longer on the board (left, removed, or it was deleted). */
export function removeBoard(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<Board[]>(boardKeys.list(), (boards) => boards?.filter((b) => b._id !== id));
  // A page still showing it leaves by itself (it watches the list); taking its data away under
  // it would unmount the control whose success callback does the leaving.
  const detail = queryClient.getQueryCache().find({ queryKey: boardKeys.detail(id), exact: true });
  if (detail?.getObserversCount() === 0) queryClient.removeQueries({ queryKey: boardKeys.detail(id), exact: true });
}

/** One member's row written into the board's detail (added or replaced), or taken out (`null`). */
export function writeMember(queryClient: QueryClient, boardId: string, email: string, member: Member | null): void {
  queryClient.setQueryData<BoardDetail>(boardKeys.detail(boardId), (detail) => {
    if (!detail) return detail;
    const others = detail.members.filter((m) => m.email !== email);
    return { ...detail, members: member ? [...others, member] : others };
  });
}
