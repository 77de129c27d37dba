import { useMutation } from '@tanstack/react-query';
import type { PasswordResetBody, PasswordResetConfirmBody } from '#shared/schemas/account.ts';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function requestPasswordReset(body: PasswordResetBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/password-resets', { method: 'POST', body, authenticated: false });
}

export async function confirmPasswordReset(body: PasswordResetConfirmBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/password-resets/confirm', { method: 'POST', body, authenticated: false });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
