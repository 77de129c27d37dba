import type { LoginEnvelope, SecondStepChallenge } from '#shared/schemas/two-step.ts';
import type { LoginBody, PublicUser } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useRequest } from '#web/lib/use-request.ts';

/** Signed in, or the password was right and the account's second step comes next. */
export type LoginResult = { user: PublicUser } | { secondStep: SecondStepChallenge };

export async function login(body: LoginBody): Promise<LoginResult> {
  // A 401 here means wrong credentials, not an expired session.
  const envelope = await apiRequest<LoginEnvelope>('/users/login', { method: 'POST', body, authenticated: false });
  return 'secondStep' in envelope.data ? { secondStep: envelope.data.secondStep } : { user: envelope.data.user };
}

export function useLogin() {
  return useRequest(login);
}
