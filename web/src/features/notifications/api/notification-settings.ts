import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, NotificationSettingsEnvelope, UpdateNotificationSettingsBody } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys } from './query-keys.ts';

/** `GET /api/notification-settings`: per type, in the app and by push (every type on unless turned off). */
export async function getNotificationSettings(signal?: AbortSignal): Promise<NotificationSettings> {
  return (await apiRequest<NotificationSettingsEnvelope>('/notification-settings', { signal })).data.settings;
}

export async function updateNotificationSettings(body: UpdateNotificationSettingsBody): Promise<NotificationSettingsEnvelope> {
  return apiRequest<NotificationSettingsEnvelope>('/notification-settings', { method: 'PATCH', body });
}

export const notificationSettingsOptions = () =>
  queryOptions({ queryKey: notificationKeys.settings(), queryFn: ({ signal }) => getNotificationSettings(signal) });

export function useNotificationSettings() {
  return useQuery(notificationSettingsOptions());
}

/** Saves only the switches that changed; the answer (all of them) replaces the cached settings. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (answer) => {
      queryClient.setQueryData(notificationKeys.settings(), answer.data.settings);
    },
  });
}
