import type { UnsubscribeEnvelope } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

/** The one-click unsubscribe of a mail's link: the token is the whole authorization. */
export async function unsubscribe(token: string): Promise<UnsubscribeEnvelope> {
  return apiRequest<UnsubscribeEnvelope>('/unsubscribe', { method: 'POST', query: { token }, body: {}, authenticated: false });
}

export function useUnsubscribe() {
  return useRequest(unsubscribe);
}
