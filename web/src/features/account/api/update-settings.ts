import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailSettingsEnvelope, UpdateMailSettingsBody } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { settingsKey } from './get-settings.ts';

export async function updateSettings(body: UpdateMailSettingsBody): Promise<MailSettingsEnvelope> {
  return apiRequest<MailSettingsEnvelope>('/users/me/settings', { method: 'PATCH', body });
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsKey, answer);
    },
  });
}
