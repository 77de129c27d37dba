/** Stable machine-readable error codes of the JSend `fail`/`error` envelope. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'NOT_AUTHENTICATED',
  'INVALID_CREDENTIALS',
  'INVALID_CODE',
  'FORBIDDEN_ORIGIN',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PERSONAL_BOARD',
  'ALREADY_MEMBER',
  'LAST_ADMIN',
  'LIMIT_REACHED',
  'LABEL_EXISTS',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
