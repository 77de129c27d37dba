import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/api-client.ts';
import { removeBoard } from './board-cache.ts';

export async function deleteBoard(id: string): Promise<void> {
  await apiRequest<undefined>(`/boards/${encodeURIComponent(id)}`, { method: 'DELETE', expectNoContent: true });
}

/** Deletes a board with its tasks (admins). */
export function useDeleteBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBoard,
    onSuccess: (_nothing, id) => {
      removeBoard(queryClient, id);
    },
  });
}
