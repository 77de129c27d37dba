import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyOptionsEnvelope } from '#shared/schemas/passkeys.ts';
import type { PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { passkeyErrorText } from '#web/lib/passkey-browser.ts';

/**
 * Sign-in with a passkey, no e-mail typed: the browser offers the passkeys it holds for this site.
 * Its own chunk, loaded when the button is pressed (the login page stays light); the failure is
 * thrown as an Error whose message a person can read.
 */
export async function signInWithPasskey(): Promise<PublicUser> {
  try {
    const options = await apiRequest<PasskeyOptionsEnvelope>('/users/login/passkey/options', { method: 'POST', authenticated: false });
    const response = await startAuthentication({ optionsJSON: options.data.options as PublicKeyCredentialRequestOptionsJSON });
    const answer = await apiRequest<UserEnvelope>('/users/login/passkey', { method: 'POST', body: { response }, authenticated: false });
    return answer.data.user;
  } catch (error) {
    throw new Error(passkeyErrorText(error, 'No passkey was used: it was cancelled, or the device did not answer.'), { cause: error });
  }
}
