import { useMutation } from '@tanstack/react-query';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function logoutAll(): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/users/logout-all', { method: 'POST' });
}

export function useLogoutAll() {
  return useMutation({ mutationFn: logoutAll });
}
