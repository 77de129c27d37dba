import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TokenListEnvelope } from '#shared/schemas/tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const tokensKey = ['account', 'tokens'] as const;

export async function getTokens(signal?: AbortSignal): Promise<TokenListEnvelope> {
  return apiRequest<TokenListEnvelope>('/tokens', { signal });
}

export const tokensQueryOptions = () => queryOptions({ queryKey: tokensKey, queryFn: ({ signal }) => getTokens(signal) });

export function useTokens() {
  return useQuery(tokensQueryOptions());
}
