import { LAST_SIGN_IN_METHOD_MESSAGE } from './sign-in-methods.ts';
import { text } from './i18n.ts';

/** Rules and texts of passkeys that the server and the web app share (not in /login's main chunk). */

/**
 * Passkeys: WebAuthn discoverable credentials with user verification. A challenge is good for
 * 5 minutes and once; a passkey's name is 1 to 60 characters.
 */
export const PASSKEY_POLICY = {
  challengeTtlMs: 5 * 60_000,
  nameMaxLength: 60,
  defaultName: 'Passkey',
} as const;

/** Server answers about passkeys. */
export const PASSKEY_MESSAGES = {
  added: text('Passkey added. You can sign in with it without typing your e-mail or password.'),
  renamed: text('Passkey renamed.'),
  removed: text('Passkey removed.'),
  notAdded: text('The passkey could not be added. Please try again.'),
  signInFailed: text('That passkey could not sign you in. Try again, or sign in with your password.'),
  notFound: text('That passkey was not found.'),
  lastSignInMethod: LAST_SIGN_IN_METHOD_MESSAGE,
  nameInvalid: text('Give the passkey a name of 1 to 60 characters.'),
} as const;
