import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardEnvelope, UpdateBoardBody } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { writeBoard } from './board-cache.ts';

export async function updateBoard(id: string, body: UpdateBoardBody) {
  const envelope = await apiRequest<BoardEnvelope>(`/boards/${encodeURIComponent(id)}`, { method: 'PATCH', body });
  return envelope.data.board;
}

/** Rename or describe a board (admins). */
export function useUpdateBoard(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBoardBody) => updateBoard(id, body),
    onSuccess: (board) => {
      writeBoard(queryClient, board);
    },
  });
}
