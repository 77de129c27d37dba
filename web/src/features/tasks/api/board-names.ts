import { useQuery } from '@tanstack/react-query';
import DataLoader from 'dataloader';
import { BOARD_NAMES_MAX_IDS, type BoardNames, type BoardNamesListEnvelope } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/*
 * The names of a board the viewer is not on but holds a task of theirs ("All my tasks" names
 * every card's board and column). The server answers them to the task's assignee and to members
 * only. Each board is one query, shared by all its cards and kept for the page's life; the boards
 * asked for in one task of the event loop (every card a render mounts) go out as one request,
 * however many boards the page shows (dataloader batches them, TanStack Query keeps them).
 */

export const boardNamesKey = (boardId: string) => ['board-names', boardId] as const;

/**
 * One `GET /api/boards/names` per batch. Nothing is cached here (the query cache is the cache),
 * and no load is aborted: a batch serves several cards, and its answer fills the cache even when
 * the card that asked has gone.
 */
const namesLoader = new DataLoader<string, BoardNames | null>(
  async (ids) => {
    const envelope = await apiRequest<BoardNamesListEnvelope>('/boards/names', { query: { ids: ids.join(',') } });
    const byId = new Map(envelope.data.boards.map((board) => [board._id, board]));
    // A board the viewer may not name (or that is gone) is null: its cards show no place.
    return ids.map((id) => byId.get(id) ?? null);
  },
  { cache: false, maxBatchSize: BOARD_NAMES_MAX_IDS },
);

/** The names of `boardId` when `wanted` (a board not among the viewer's own); undefined until known. */
export function useBoardNames(boardId: string, wanted: boolean): BoardNames | undefined {
  const { data } = useQuery({
    queryKey: boardNamesKey(boardId),
    queryFn: () => namesLoader.load(boardId),
    enabled: wanted,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return data ?? undefined;
}
