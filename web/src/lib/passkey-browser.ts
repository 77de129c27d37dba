import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { isApiError } from './api-client.ts';
import { errorText } from './error-text.ts';

/**
 * What the browser side of a passkey ceremony needs on both the account and the login page
 * (loaded with the ceremony, never with the page).
 */

/** The words for a failed ceremony: the API's message, or one sentence for the browser's refusals. */
export function passkeyErrorText(error: unknown, cancelled: string): string {
  if (isApiError(error)) return errorText(error);
  // @simplewebauthn/browser's WebAuthnError and the browser's DOMException both carry a name.
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError' || name === 'WebAuthnError') return cancelled;
  if (name === 'InvalidStateError') return t`This device already holds a passkey for your account.`;
  if (name === 'NotSupportedError' || name === 'SecurityError') return t`This browser cannot use passkeys on this address.`;
  return errorText(error);
}

// Brand names are the same in every language; "iPhone or iPad" is a phrase, translated.
/* eslint-disable lingui/no-unlocalized-strings -- the names of operating systems and browsers */
const PLATFORMS: [RegExp, string | MessageDescriptor][] = [
  [/iPhone|iPad|iPod/, msg`iPhone or iPad`],
  [/Android/, 'Android'],
  [/Mac OS X|Macintosh/, 'Mac'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];
const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
/* eslint-enable lingui/no-unlocalized-strings */

/**
 * A name for a passkey made here when none is typed: "Chrome on Linux", in the language in use
 * (it is kept as the passkey's name, as if typed).
 */
export function defaultPasskeyName(userAgent: string = navigator.userAgent): string {
  const found = PLATFORMS.find(([re]) => re.test(userAgent))?.[1];
  const platform = found === undefined || typeof found === 'string' ? found : i18n._(found);
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  if (platform !== undefined && browser !== undefined) return t({ message: `${browser} on ${platform}`, comment: 'The name given to a new passkey: a browser on a device, e.g. Chrome on Linux' });
  return platform ?? browser ?? t({ message: 'Passkey', comment: 'The name given to a new passkey when its browser and device are unknown' });
}
