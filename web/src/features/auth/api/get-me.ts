import type { PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The signed-in user. A 401 goes to the session's handler (signed out quietly). */
export async function getMe(signal?: AbortSignal): Promise<PublicUser> {
  const envelope = await apiRequest<UserEnvelope>('/users/me', { signal });
  return envelope.data.user;
}
