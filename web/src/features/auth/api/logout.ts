import { i18n } from '@lingui/core';
import { useMutation } from '@tanstack/react-query';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function logout(): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/users/logout', {
    // POST, not GET: signing out changes state, and the server keeps GET only for older
    // clients.
    method: 'POST',
    // Already signed out on the server is still a successful logout for the user.
    authenticated: false,
    fallbackMessage: i18n._(CLIENT_MESSAGES.logoutFailedDefault),
  });
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
