import { text } from './i18n.ts';

/** The answer when a change would leave an account no way to sign in (409 LAST_SIGN_IN_METHOD), whichever way in is being removed. */
export const LAST_SIGN_IN_METHOD_MESSAGE = text(
  'This is the last way to sign in to your account. Add a passkey, link a provider or set a password (with "Forgot password") first.',
);
