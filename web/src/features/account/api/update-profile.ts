import { useMutation } from '@tanstack/react-query';
import type { ProfileEnvelope, UpdateProfileBody } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function updateProfile(body: UpdateProfileBody): Promise<ProfileEnvelope> {
  return apiRequest<ProfileEnvelope>('/users/me', { method: 'PATCH', body });
}

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
