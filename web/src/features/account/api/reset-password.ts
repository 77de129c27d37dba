import type { PasswordResetBody, PasswordResetConfirmBody } from '#shared/schemas/account.ts';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

/** Reached signed out (a mail's link): plain requests, not the signed-in app's query layer. */
export async function requestPasswordReset(body: PasswordResetBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/password-resets', { method: 'POST', body, authenticated: false });
}

export async function confirmPasswordReset(body: PasswordResetConfirmBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/password-resets/confirm', { method: 'POST', body, authenticated: false });
}

export function useRequestPasswordReset() {
  return useRequest(requestPasswordReset);
}

export function useConfirmPasswordReset() {
  return useRequest(confirmPasswordReset);
}
