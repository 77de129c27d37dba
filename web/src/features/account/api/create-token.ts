import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedTokenEnvelope, CreateTokenBody } from '#shared/schemas/tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { tokensKey } from './get-tokens.ts';

export async function createToken(body: CreateTokenBody): Promise<CreatedTokenEnvelope> {
  return apiRequest<CreatedTokenEnvelope>('/tokens', { method: 'POST', body });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
