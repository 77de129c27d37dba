import { text } from './i18n.ts';

/** Rules and texts of two-step sign-in that the server and the web app share (apart from /login's main chunk). */

/**
 * The second step of sign-in: an authenticator app's code (RFC 6238: HMAC-SHA-1, 6 digits, a
 * new code every 30 s; one step either side is accepted for clocks that drift), or one of 10
 * one-time recovery codes. A password sign-in waiting for it lasts 5 minutes and ends after 5
 * wrong codes.
 */
export const TWO_STEP_POLICY = {
  digits: 6,
  periodSeconds: 30,
  driftSteps: 1,
  tokenTtlMs: 5 * 60_000,
  maxFailures: 5,
  recoveryCodeCount: 10,
} as const;

/** Server answers about the second step of sign-in. */
export const TWO_STEP_MESSAGES = {
  secondStepNeeded: text('Enter the code from your authenticator app, or a recovery code.'),
  invalidCode: text('The code is not correct or was already used. Please try again, or sign in again.'),
  setupRequired: text('Set up two-step sign-in with an authenticator app before you continue.'),
} as const;
