import { Type, type Static } from 'typebox';
import { ERROR_CODES } from '../error-codes.ts';

/**
 * An e-mail as sent by a client. The server's validator registers its own `email` format
 * (shared/email.ts: trimmed, lower-cased, at most 254 characters); handlers normalize before use.
 */
export const EmailInput = Type.String({
  format: 'email',
  maxLength: 320,
  description: 'E-mail address; surrounding spaces are trimmed and it is lower-cased.',
  examples: ['ada@example.com'],
});

export const FieldError = Type.Object({ field: Type.String(), message: Type.String() });
export type FieldError = Static<typeof FieldError>;

/** JSend `fail`: the client sent something we will not act on (4xx). */
export const FailEnvelope = Type.Object({
  status: Type.Literal('fail'),
  code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
  message: Type.String(),
  errors: Type.Optional(Type.Array(FieldError)),
});
export type FailEnvelope = Static<typeof FailEnvelope>;

/** JSend `error`: our fault (5xx). The message never carries internals. */
export const ErrorEnvelope = Type.Object({
  status: Type.Literal('error'),
  code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
  message: Type.String(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export const MessageEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
});
export type MessageEnvelope = Static<typeof MessageEnvelope>;

export const HealthEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ database: Type.Literal('ok') }),
});
export type HealthEnvelope = Static<typeof HealthEnvelope>;
