import type { ErrorCode } from '#shared/error-codes.ts';
import type { Translatable } from '#shared/i18n.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { english } from './i18n/translate.ts';

/**
 * What is wrong with one field: `errors[]` of a 400 answer. Its message is written in the
 * reader's language by the error handler (shared/schemas/common.ts has the answer's shape).
 */
export interface FieldError {
  field: string;
  message: Translatable;
}

/**
 * The server's one error type. The error handler (plugins/error-handler.ts) turns it into the
 * JSend envelope: `fail` for 4xx, `error` for 5xx, its `text` and field messages in the reader's
 * language. `message` is the English text (logs).
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** The answer's message, translated when it is sent. */
  readonly text: Translatable;
  readonly errors: FieldError[] | undefined;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSend `data` of a fail answer that carries some (409 CONFLICT: the current task). */
  data: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: Translatable,
    errors?: FieldError[],
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(english(message));
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.text = message;
    this.errors = errors;
    this.headers = headers;
    this.data = undefined;
  }
}

/** 400 VALIDATION_FAILED; with a single field error its text is the message a person reads. */
export function validationFailed(errors: FieldError[]): AppError {
  const message = errors.length === 1 && errors[0] ? errors[0].message : SERVER_MESSAGES.validationFailed;
  return new AppError(400, 'VALIDATION_FAILED', message, errors);
}

/** 429 RATE_LIMITED with `Retry-After` in whole seconds (at least 1). */
export function rateLimited(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, 'RATE_LIMITED', SERVER_MESSAGES.tooManyRequests, undefined, {
    'retry-after': String(seconds),
  });
}

export const notAuthenticated = (): AppError =>
  new AppError(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated);

/** 409 CONFLICT: the write was based on another version than the current one; nothing changed. */
export function conflict(message: Translatable, data: Record<string, unknown>): AppError {
  const error = new AppError(409, 'CONFLICT', message);
  error.data = data;
  return error;
}
