import { t } from '@lingui/core/macro';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyOptionsEnvelope } from '#shared/schemas/passkeys.ts';
import type { PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { passkeyErrorText } from '#web/lib/passkey-browser.ts';

/**
 * Sign-in with a passkey, no e-mail typed: the browser offers the passkeys it holds for this site.
 * Its own chunk, loaded when the login page's button is pressed, so it also does what the form
 * would (clear the form's error, sign in, or show why not): the page's own script stays small.
 */
export async function signInWithPasskey(signIn: (user: PublicUser) => void, showError: (message: string | null) => void): Promise<void> {
  showError(null);
  try {
    const options = await apiRequest<PasskeyOptionsEnvelope>('/users/login/passkey/options', { method: 'POST', authenticated: false });
    const response = await startAuthentication({ optionsJSON: options.data.options as PublicKeyCredentialRequestOptionsJSON });
    const answer = await apiRequest<UserEnvelope>('/users/login/passkey', { method: 'POST', body: { response }, authenticated: false });
    signIn(answer.data.user);
  } catch (error) {
    showError(passkeyErrorText(error, t`No passkey was used: it was cancelled, or the device did not answer.`));
  }
}
