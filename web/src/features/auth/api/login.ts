import { useMutation } from '@tanstack/react-query';
import type { LoginBody, PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function login(body: LoginBody): Promise<PublicUser> {
  // A 401 here means wrong credentials, not an expired session.
  const envelope = await apiRequest<UserEnvelope>('/users/login', { method: 'POST', body, authenticated: false });
  return envelope.data.user;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
