import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Board, BoardDetailEnvelope, Member } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { boardKeys } from './query-keys.ts';

export interface BoardDetail {
  board: Board;
  members: Member[];
}

export async function getBoard(id: string, signal?: AbortSignal): Promise<BoardDetail> {
  const envelope = await apiRequest<BoardDetailEnvelope>(`/boards/${encodeURIComponent(id)}`, { signal });
  return envelope.data;
}

export const boardQueryOptions = (id: string) =>
  queryOptions({
    queryKey: boardKeys.detail(id),
    queryFn: ({ signal }) => getBoard(id, signal),
  });

/** One board and its members; a 404 means the viewer is not on it (or it does not exist). */
export function useBoard(id: string) {
  return useQuery(boardQueryOptions(id));
}
