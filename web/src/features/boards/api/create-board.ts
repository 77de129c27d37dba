import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardEnvelope, CreateBoardBody } from '#shared/schemas/boards.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { writeBoard } from './board-cache.ts';

export async function createBoard(body: CreateBoardBody) {
  const envelope = await apiRequest<BoardEnvelope>('/boards', { method: 'POST', body });
  return envelope.data.board;
}

export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBoard,
    onSuccess: (board) => {
      writeBoard(queryClient, board);
    },
  });
}
