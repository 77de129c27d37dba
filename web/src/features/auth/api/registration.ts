import { useEffect, useState } from 'react';
import type { RegistrationEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export type Registration = RegistrationEnvelope['data']['registration'];

/** Who may register on this server (the server decides; the sign-up page says so before anyone types). */
export async function getRegistration(): Promise<Registration> {
  return (await apiRequest<RegistrationEnvelope>('/registration', { authenticated: false })).data.registration;
}

/**
 * Asked once each time the sign-up page opens (tried once more when no answer came); until it
 * answers, and if it never does, the form is shown as open and the server still decides.
 */
export function useRegistration(): { data: Registration | undefined } {
  const [data, setData] = useState<Registration>();
  useEffect(() => {
    let live = true;
    getRegistration()
      .catch(() => getRegistration())
      .then(
        (registration) => {
          if (live) setData(registration);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  return { data };
}
