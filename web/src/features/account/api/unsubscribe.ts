import { useMutation } from '@tanstack/react-query';
import type { UnsubscribeEnvelope } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The one-click unsubscribe of a mail's link: the token is the whole authorization. */
export async function unsubscribe(token: string): Promise<UnsubscribeEnvelope> {
  return apiRequest<UnsubscribeEnvelope>('/unsubscribe', { method: 'POST', query: { token }, body: {}, authenticated: false });
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
