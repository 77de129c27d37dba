import type { SecondStepBody } from '#shared/schemas/two-step.ts';
import type { PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

export async function loginSecondStep(body: SecondStepBody): Promise<PublicUser> {
  const envelope = await apiRequest<UserEnvelope>('/users/login/second-step', { method: 'POST', body, authenticated: false });
  return envelope.data.user;
}

export function useLoginSecondStep() {
  return useRequest(loginSecondStep);
}
