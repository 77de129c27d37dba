import type { QueryClient } from '@tanstack/react-query';
import type { Board } from '#shared/schemas/boards.ts';
import { removeBoard, writeBoard } from './board-cache.ts';
import { boardKeys } from './query-keys.ts';

/** The board events of the live stream: a board became visible, changed, or went away. */
export const BOARD_EVENTS = ['board.added', 'board.updated', 'board.removed'] as const;
export type BoardEventType = (typeof BOARD_EVENTS)[number];

function isBoard(value: unknown): value is Board {
  if (typeof value !== 'object' || value === null) return false;
  const board = value as Partial<Board>;
  return typeof board._id === 'string' && typeof board.name === 'string' && typeof board.role === 'string';
}

/**
 * Writes one board event into the cache; returns the board's id (null for an event it could
 * not read). A change of members or roles also asks the open board's detail again.
 */
export function applyBoardEvent(queryClient: QueryClient, type: string, data: unknown): string | null {
  const board = (data as { board?: unknown } | null)?.board;
  if (type === 'board.removed') {
    const id = (board as { _id?: unknown } | undefined)?._id;
    if (typeof id !== 'string') return null;
    removeBoard(queryClient, id);
    return id;
  }
  if (!isBoard(board)) return null;
  writeBoard(queryClient, board);
  if (type === 'board.updated') void queryClient.invalidateQueries({ queryKey: boardKeys.detail(board._id), exact: true });
  return board._id;
}

export async function refreshBoards(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: boardKeys.all });
}
