import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedWebhookEnvelope,
  CreateWebhookBody,
  Delivery,
  DeliveryListEnvelope,
  UpdateWebhookBody,
  Webhook,
  WebhookEnvelope,
  WebhookListEnvelope,
} from '#shared/schemas/webhooks.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/*
 * A board's webhooks (admins only: the server answers 403 to anyone else) and their delivery
 * logs. The list is written from each answer at once; a log is asked again after a redelivery,
 * and every few seconds while a delivery in it is pending.
 */

export const webhookKeys = {
  all: ['webhooks'] as const,
  board: (boardId: string) => [...webhookKeys.all, boardId] as const,
  deliveries: (boardId: string, hookId: string) => [...webhookKeys.all, boardId, 'deliveries', hookId] as const,
};

const hooksPath = (boardId: string) => `/boards/${encodeURIComponent(boardId)}/webhooks`;
const hookPath = (boardId: string, hookId: string) => `${hooksPath(boardId)}/${encodeURIComponent(hookId)}`;

export const webhooksQueryOptions = (boardId: string) =>
  queryOptions({
    queryKey: webhookKeys.board(boardId),
    queryFn: async ({ signal }) => (await apiRequest<WebhookListEnvelope>(hooksPath(boardId), { signal })).data.webhooks,
  });

export function useWebhooks(boardId: string) {
  return useQuery(webhooksQueryOptions(boardId));
}

/** How often an open log is asked again while one of its deliveries is still pending. */
export const PENDING_DELIVERIES_REFRESH_MS = 3_000;

export function useDeliveries(boardId: string, hookId: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.deliveries(boardId, hookId),
    queryFn: async ({ signal }): Promise<Delivery[]> =>
      (await apiRequest<DeliveryListEnvelope>(`${hookPath(boardId, hookId)}/deliveries`, { signal })).data.deliveries,
    enabled,
    // A delivery's outcome is recorded just after its answer arrives (and a retry waits its
    // back-off), so a log opened in between would otherwise say "Pending" until Refresh.
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') === true ? PENDING_DELIVERIES_REFRESH_MS : false),
  });
}

function useWriteHook(boardId: string) {
  const queryClient = useQueryClient();
  return (id: string, hook: Webhook | null) => {
    queryClient.setQueryData<Webhook[]>(webhookKeys.board(boardId), (hooks) => {
      if (!hooks) return hooks;
      if (hook === null) return hooks.filter((h) => h._id !== id);
      return hooks.some((h) => h._id === id) ? hooks.map((h) => (h._id === id ? hook : h)) : [...hooks, hook];
    });
  };
}

export function useCreateWebhook(boardId: string) {
  const write = useWriteHook(boardId);
  return useMutation({
    mutationFn: async (body: CreateWebhookBody) => (await apiRequest<CreatedWebhookEnvelope>(hooksPath(boardId), { method: 'POST', body })).data,
    onSuccess: ({ webhook }) => {
      write(webhook._id, webhook);
    },
  });
}

export function useUpdateWebhook(boardId: string) {
  const write = useWriteHook(boardId);
  return useMutation({
    mutationFn: async ({ hookId, ...body }: UpdateWebhookBody & { hookId: string }) =>
      (await apiRequest<WebhookEnvelope>(hookPath(boardId, hookId), { method: 'PATCH', body })).data.webhook,
    onSuccess: (webhook) => {
      write(webhook._id, webhook);
    },
  });
}

export function useDeleteWebhook(boardId: string) {
  const write = useWriteHook(boardId);
  return useMutation({
    mutationFn: async (hookId: string) => {
      await apiRequest(hookPath(boardId, hookId), { method: 'DELETE', expectNoContent: true });
      return hookId;
    },
    onSuccess: (hookId) => {
      write(hookId, null);
    },
  });
}

export function useRedeliver(boardId: string, hookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) => {
      await apiRequest(`${hookPath(boardId, hookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(boardId, hookId) });
    },
  });
}
