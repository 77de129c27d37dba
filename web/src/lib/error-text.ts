import { i18n } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { isApiError } from './api-client.ts';

/** Shown for a failure that is not an answer of the API's and carries no words of its own. */
export const UNKNOWN_ERROR_MESSAGE = msg`Something went wrong.`;

export interface ErrorTextOptions {
  /** The first field error's message instead, where the screen has no field to show it beside. */
  firstField?: boolean;
  /** After a 429 with `Retry-After`: add when to try again (for messages that do not say so). */
  retryHint?: boolean;
}

/**
 * The one way a screen turns a failed call into words: the API's own message (the client turns
 * every failure, a lost connection included, into an `ApiError` that carries one). Anything else
 * thrown (a bug, an abort) shows its own message, or "Something went wrong." when it has none.
 */
export function errorText(error: unknown, options: ErrorTextOptions = {}): string {
  if (isApiError(error)) {
    const message = (options.firstField ? error.errors[0]?.message : undefined) ?? error.message;
    if (options.retryHint && error.status === 429 && error.retryAfter) {
      const minutes = Math.ceil(error.retryAfter / 60);
      return t({
        message: plural(minutes, { one: `${message} Try again in # min.`, other: `${message} Try again in # min.` }),
        comment: 'message: the server’s refusal (too many tries); then when to try again, in minutes',
      });
    }
    return message;
  }
  if (error instanceof Error && error.message !== '') return error.message;
  return i18n._(UNKNOWN_ERROR_MESSAGE);
}
