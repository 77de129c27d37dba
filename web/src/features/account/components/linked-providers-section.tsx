import { Trans, useLingui } from '@lingui/react/macro';
import { useSearchParams } from 'react-router';
import { isOidcErrorCode, OIDC_ERROR_MESSAGES } from '#shared/oidc.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useIdentities, useStartLink, useUnlink } from '../api/identities.ts';
import { AccountSection } from './account-section.tsx';

/** What a link that just came back from the provider says (`/account?oidcLinked=ID` or `?oidcError=CODE`). */
function useReturnNote(): { tone: 'success' | 'error'; text: string } | null {
  const [params] = useSearchParams();
  const { t } = useLingui();
  const error = params.get('oidcError');
  if (error !== null) {
    const failed = t`Linking the provider did not work. Please try again.`;
    return { tone: 'error', text: isOidcErrorCode(error) ? OIDC_ERROR_MESSAGES[error] : failed };
  }
  if (params.has('oidcLinked')) return { tone: 'success', text: t`The provider is linked: you can sign in with it.` };
  return null;
}

/**
 * Sign-in providers (OpenID Connect) linked to the account: each with Unlink, and Link for the
 * server's others. The server refuses to unlink the last way to sign in (409 LAST_SIGN_IN_METHOD)
 * and says why. Nothing shows on a server without providers, unless one is still linked.
 */
export function LinkedProvidersSection() {
  const identities = useIdentities();
  const startLink = useStartLink();
  const unlink = useUnlink();
  const note = useReturnNote();
  const { t } = useLingui();
  const data = identities.data;
  if (data === undefined || (data.providers.length === 0 && data.identities.length === 0)) return null;
  const linked = new Set(data.identities.map((i) => i.providerId));
  const unlinkedProviders = data.providers.filter((p) => !linked.has(p.id));
  const error = startLink.error ?? unlink.error;

  return (
    <AccountSection id="account-providers" title={t`Sign-in providers`}>
      {note !== null && unlink.data === undefined ? <Alert tone={note.tone}>{note.text}</Alert> : null}
      {unlink.data !== undefined ? <Alert tone="success">{unlink.data.message}</Alert> : null}
      {error !== null ? <Alert tone="error">{errorText(error)}</Alert> : null}
      {data.identities.length === 0 ? (
        <p className="account-section__text">
          <Trans>No sign-in provider is linked to your account.</Trans>
        </p>
      ) : (
        <ul className="account-providers" aria-label={t`Linked sign-in providers`}>
          {data.identities.map((identity) => {
            const providerName = identity.providerName;
            return (
              <li key={identity.providerId} className="account-providers__item">
                <span>
                  <strong>{providerName}</strong> {identity.email === '' ? null : <span>(<bdi>{identity.email}</bdi>)</span>}
                </span>
                <Button
                  size="sm"
                  variant="danger-ghost"
                  busy={unlink.isPending && unlink.variables === identity.providerId}
                  onClick={() => {
                    startLink.reset();
                    unlink.mutate(identity.providerId);
                  }}
                >
                  <Trans>Unlink {providerName}</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {unlinkedProviders.length > 0 ? (
        <div className="account-form__actions">
          {unlinkedProviders.map((provider) => {
            const providerName = provider.name;
            return (
              <Button
                key={provider.id}
                busy={startLink.isPending && startLink.variables === provider.id}
                onClick={() => {
                  unlink.reset();
                  startLink.mutate(provider.id, {
                    onSuccess: (url) => {
                      location.assign(url);
                    },
                  });
                }}
              >
                <Trans>Link {providerName}</Trans>
              </Button>
            );
          })}
        </div>
      ) : null}
    </AccountSection>
  );
}
