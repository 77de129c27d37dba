import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { UserEnvelope } from '#shared/schemas/users.ts';
import { useSession } from './session-provider.tsx';
import type { ProvidersEnvelope } from '#shared/schemas/oidc.ts';
import { Alert } from '#web/components/alert.tsx';
import { RETURN_PARAM } from '#web/lib/return-path.ts';

/**
 * "Sign in with <provider>" links, on the sign-in and the sign-up page alike (a provider's first
 * sign-in makes the account; plain links: the server sends the browser on to the provider and back, and checks the return
 * path itself) and, after a provider sign-in failed (`?error=CODE`), the server's text for it.
 * Nothing when the server has no providers. No library: this is in the sign-in page's first chunk.
 */
export function ProviderLinks() {
  const { t } = useLingui();
  const [answer, setAnswer] = useState<ProvidersEnvelope['data'] | null>(null);
  const [params] = useSearchParams();
  const next = params.get(RETURN_PARAM);
  const error = params.get('error');
  const signedIn = useLocation().hash === '#signed-in';
  const { signIn } = useSession();
  useEffect(() => {
    // Back from a provider with a session: take it, and the sign-in page sends the user on.
    if (signedIn) {
      fetch('/api/users/me')
        .then((res) => (res.ok ? (res.json() as Promise<UserEnvelope>) : null))
        .then(
          (body) => {
            if (body !== null) signIn(body.data.user);
          },
          () => undefined,
        );
    }
    fetch(`/api/auth/providers${error === null ? '' : `?error=${encodeURIComponent(error)}`}`)
      .then((res) => res.json() as Promise<ProvidersEnvelope>)
      .then(
        (body) => {
          setAnswer(body.data);
        },
        () => undefined,
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per visit of the page
  }, [error, signedIn]);
  if (answer === null) return null;
  return (
    <>
      {answer.error !== null && <Alert tone="error">{answer.error}</Alert>}
      {answer.providers.length === 0 ? null : (
        <div className="auth-providers">
          {answer.providers.map(({ id, name }) => (
            <a
              key={id}
              className="btn btn--secondary btn--lg btn--block"
              href={`/api/auth/oidc/${id}/start${next === null ? '' : `?returnTo=${encodeURIComponent(next)}`}`}
            >
              {t({ message: `Sign in with ${name}`, comment: 'name: a sign-in provider’s name, e.g. GitHub' })}
            </a>
          ))}
        </div>
      )}
    </>
  );
}
