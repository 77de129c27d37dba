import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Board, BoardListEnvelope } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { boardKeys } from './query-keys.ts';

export async function getBoards(signal?: AbortSignal): Promise<Board[]> {
  const envelope = await apiRequest<BoardListEnvelope>('/boards', { signal });
  return envelope.data.boards;
}

/** The boards the viewer is on, personal first, then by name (the server's order, kept by live updates). */
export const boardsQueryOptions = () =>
  queryOptions({
    queryKey: boardKeys.list(),
    queryFn: ({ signal }) => getBoards(signal),
  });

export function useBoards() {
  return useQuery(boardsQueryOptions());
}

/** The server's order: personal first, then by name. */
export function sortBoards(boards: readonly Board[]): Board[] {
  return [...boards].sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}
