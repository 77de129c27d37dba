import type { MessageEnvelope } from '#shared/schemas/common.ts';
import type { RequestOtpBody } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

export async function requestOtp(body: RequestOtpBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/otps', { method: 'POST', body, authenticated: false });
}

export function useRequestOtp() {
  return useRequest(requestOtp);
}
