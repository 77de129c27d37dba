import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Label, LabelListEnvelope } from '#shared/schemas/labels.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { labelKeys } from './query-keys.ts';

export async function getLabels(boardId: string, signal?: AbortSignal): Promise<Label[]> {
  const envelope = await apiRequest<LabelListEnvelope>(`/boards/${encodeURIComponent(boardId)}/labels`, { signal });
  return envelope.data.labels;
}

export const labelsQueryOptions = (boardId: string) =>
  queryOptions({
    queryKey: labelKeys.board(boardId),
    queryFn: ({ signal }) => getLabels(boardId, signal),
    // Kept current by the board's live events (refreshBoardLabels), like the board itself.
    staleTime: Infinity,
  });

/** A board's labels, by name (`null`: no board, nothing is asked). */
export function useLabels(boardId: string | null) {
  return useQuery({ ...labelsQueryOptions(boardId ?? ''), enabled: boardId !== null && boardId !== '' });
}

/** By name, ignoring case, as the server orders them. */
export function sortLabels(labels: readonly Label[]): Label[] {
  return [...labels].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name));
}

/** A board's labels changed (a `board.updated` event, or after a missed stretch of events): asked again. */
export async function refreshBoardLabels(queryClient: QueryClient, boardId?: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: boardId === undefined ? labelKeys.all : labelKeys.board(boardId) });
}
