import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedEnvelope } from '#shared/schemas/integrations.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const calendarFeedKey = ['account', 'calendar'] as const;

/** My secret calendar URL (the server makes it on the first call). */
export async function getCalendarFeed(signal?: AbortSignal): Promise<CalendarFeedEnvelope> {
  return apiRequest<CalendarFeedEnvelope>('/users/me/calendar', { signal });
}

export const calendarFeedQueryOptions = () => queryOptions({ queryKey: calendarFeedKey, queryFn: ({ signal }) => getCalendarFeed(signal) });

export function useCalendarFeed() {
  return useQuery(calendarFeedQueryOptions());
}

export async function rotateCalendarFeed(): Promise<CalendarFeedEnvelope> {
  return apiRequest<CalendarFeedEnvelope>('/users/me/calendar/rotate', { method: 'POST' });
}

/** A new secret URL; the old one stops working at once. */
export function useRotateCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateCalendarFeed,
    onSuccess: (answer) => {
      client.setQueryData(calendarFeedKey, answer);
    },
  });
}
