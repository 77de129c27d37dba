import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MeSettingsEnvelope } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const settingsKey = ['account', 'settings'] as const;

export async function getSettings(signal?: AbortSignal): Promise<MeSettingsEnvelope> {
  return apiRequest<MeSettingsEnvelope>('/users/me/settings', { signal });
}

export const settingsQueryOptions = () => queryOptions({ queryKey: settingsKey, queryFn: ({ signal }) => getSettings(signal) });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
