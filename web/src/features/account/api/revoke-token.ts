import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/api-client.ts';
import { tokensKey } from './get-tokens.ts';

export async function revokeToken(id: string): Promise<void> {
  await apiRequest<undefined>(`/tokens/${encodeURIComponent(id)}`, { method: 'DELETE', expectNoContent: true });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
