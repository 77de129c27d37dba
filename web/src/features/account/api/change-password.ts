import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '#shared/schemas/account.ts';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function changePassword(body: ChangePasswordBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/users/me/password', { method: 'POST', body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
