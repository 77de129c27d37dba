import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import type { IdentitiesEnvelope, LinkEnvelope } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const identitiesKey = ['account', 'identities'] as const;

export async function getIdentities(signal?: AbortSignal): Promise<IdentitiesEnvelope['data']> {
  return (await apiRequest<IdentitiesEnvelope>('/account/identities', { signal })).data;
}

export const identitiesQueryOptions = () => queryOptions({ queryKey: identitiesKey, queryFn: ({ signal }) => getIdentities(signal) });

export function useIdentities() {
  return useQuery(identitiesQueryOptions());
}

/** Starts linking: the provider's page to send the browser to. */
export async function startLink(providerId: string): Promise<string> {
  return (await apiRequest<LinkEnvelope>(`/account/identities/${encodeURIComponent(providerId)}`, { method: 'POST', body: {} })).data.url;
}

export function useStartLink() {
  return useMutation({ mutationFn: startLink });
}

export async function unlink(providerId: string): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>(`/account/identities/${encodeURIComponent(providerId)}`, { method: 'DELETE' });
}

export function useUnlink() {
  const client = useQueryClient();
  return useMutation({ mutationFn: unlink, onSuccess: () => client.invalidateQueries({ queryKey: identitiesKey }) });
}
