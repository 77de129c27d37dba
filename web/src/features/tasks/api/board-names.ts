import { useQuery } from '@tanstack/react-query';
import type { BoardNames, BoardNamesEnvelope } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/*
 * The names of a board the viewer is not on but holds a task of theirs ("All my tasks" names
 * every card's board and column). The server answers them to the task's assignee and to members
 * only; one request per such board, shared by all its cards, kept for the page's life.
 */

export const boardNamesKey = (boardId: string) => ['board-names', boardId] as const;

async function getBoardNames(boardId: string, signal: AbortSignal): Promise<BoardNames> {
  const envelope = await apiRequest<BoardNamesEnvelope>(`/boards/${encodeURIComponent(boardId)}/names`, { signal });
  return envelope.data.board;
}

/** The names of `boardId` when `wanted` (a board not among the viewer's own); undefined until known. */
export function useBoardNames(boardId: string, wanted: boolean): BoardNames | undefined {
  const { data } = useQuery({
    queryKey: boardNamesKey(boardId),
    queryFn: ({ signal }) => getBoardNames(boardId, signal),
    enabled: wanted,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return data;
}
