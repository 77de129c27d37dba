import { ADMIN_MESSAGES } from './admin.ts';
import { LAST_SIGN_IN_METHOD_MESSAGE } from './sign-in-methods.ts';
import { text } from './i18n.ts';

/** Single sign-on with OpenID Connect providers: the codes and texts the server and the web app share. */

/** A sign-in or link under way at a provider lasts this long. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

/**
 * Why a sign-in (or link) through a provider did not happen: the code travels in the URL the
 * browser is sent back to (`/login?error=CODE`, `/account?oidcError=CODE`), the text is shown.
 */
export const OIDC_ERROR_MESSAGES = {
  oidc_unavailable: text('The sign-in provider could not be reached. Please try again later.'),
  oidc_state: text('That sign-in did not start in this browser, or it is not valid. Please start again.'),
  oidc_expired: text('That sign-in took too long and expired. Please start again.'),
  oidc_replayed: text('That sign-in answer was already used. Please start again.'),
  oidc_denied: text('The sign-in provider did not let you in. Please start again.'),
  oidc_failed: text('The sign-in provider\u2019s answer could not be verified. Please start again.'),
  oidc_unverified:
    text('The sign-in provider has not verified your e-mail address, so it cannot sign you in to an account with that address. Sign in with your password, then link the provider on your account page.'),
  oidc_no_email: text('The sign-in provider did not give an e-mail address, which a new account needs.'),
  oidc_taken: text('That account at the provider is already linked to another Taskwise account.'),
  oidc_unknown: text('That sign-in provider is not set up on this server.'),
  registration_closed: text('Sign-up on this server is closed to that address.'),
  account_deactivated: ADMIN_MESSAGES.deactivated,
  rate_limited: text('Too many sign-in attempts from your network. Please wait a few minutes and try again.'),
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERROR_MESSAGES;

export const isOidcErrorCode = (code: string): code is OidcErrorCode => Object.hasOwn(OIDC_ERROR_MESSAGES, code);

export const OIDC_MESSAGES = {
  unlinked: text('The provider is no longer linked to your account.'),
  lastSignInMethod: LAST_SIGN_IN_METHOD_MESSAGE,
  notLinked: text('That provider is not linked to your account.'),
} as const;
