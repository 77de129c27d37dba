import type { MessageEnvelope } from '#shared/schemas/common.ts';
import type { RegisterBody } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

export async function register(body: RegisterBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/users/register', { method: 'POST', body, authenticated: false });
}

export function useRegister() {
  return useRequest(register);
}
