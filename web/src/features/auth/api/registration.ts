import { useQuery } from '@tanstack/react-query';
import type { RegistrationEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export type Registration = RegistrationEnvelope['data']['registration'];

/** Who may register on this server (the server decides; the sign-up page says so before anyone types). */
export async function getRegistration(): Promise<Registration> {
  return (await apiRequest<RegistrationEnvelope>('/registration', { authenticated: false })).data.registration;
}

export function useRegistration() {
  // Set by the server's configuration: read once a visit.
  return useQuery({ queryKey: ['registration'], queryFn: getRegistration, staleTime: Infinity, retry: 1 });
}
