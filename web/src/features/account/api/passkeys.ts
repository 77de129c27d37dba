import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import type { PasskeyEnvelope, PasskeyListEnvelope, PasskeyOptionsEnvelope } from '#shared/schemas/passkeys.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const passkeysKey = ['account', 'passkeys'] as const;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: passkeysKey,
    queryFn: async ({ signal }) => (await apiRequest<PasskeyListEnvelope>('/account/passkeys', { signal })).data.passkeys,
  });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

/**
 * Adds a passkey: the server's options, the browser's ceremony (the person picks where to keep
 * it and verifies), the answer back. @simplewebauthn/browser is loaded only now.
 */
export async function addPasskey(name: string): Promise<PasskeyEnvelope> {
  const [{ startRegistration }, options] = await Promise.all([
    import('@simplewebauthn/browser'),
    apiRequest<PasskeyOptionsEnvelope>('/account/passkeys/options', { method: 'POST' }),
  ]);
  const response = await startRegistration({ optionsJSON: options.data.options as PublicKeyCredentialCreationOptionsJSON });
  return apiRequest<PasskeyEnvelope>('/account/passkeys', { method: 'POST', body: { name, response } });
}

export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addPasskey, onSettled: () => client.invalidateQueries({ queryKey: passkeysKey }) });
}

export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiRequest<PasskeyEnvelope>(`/account/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name } }),
    onSettled: () => client.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<MessageEnvelope | undefined>(`/account/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE', expectNoContent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: passkeysKey }),
  });
}
