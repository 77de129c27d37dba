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
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'NotSupportedError' || name === 'SecurityError') return 'This browser cannot use passkeys on this address.';
  return errorText(error);
}

const PLATFORMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iPhone or iPad'],
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

/** A name for a passkey made here when none is typed: "Chrome on Linux". */
export function defaultPasskeyName(userAgent: string = navigator.userAgent): string {
  const platform = PLATFORMS.find(([re]) => re.test(userAgent))?.[1];
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  if (platform !== undefined && browser !== undefined) return `${browser} on ${platform}`;
  return platform ?? browser ?? 'Passkey';
}
