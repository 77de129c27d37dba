import { Type, type Static, type TLiteral, type TUnion } from 'typebox';
import { ERROR_CODES } from '../error-codes.ts';

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K] & string> };

/**
 * `anyOf` of string literals whose static type is the union of the values. (A plain
 * `Type.Union(values.map(Type.Literal))` builds the same JSON Schema but its static type is
 * `never`, because the mapped array is not a tuple.)
 */
export function literalUnion<const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnion<Literals<T>> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<Literals<T>>;
}

const ErrorCodeField = literalUnion(ERROR_CODES);

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
  code: ErrorCodeField,
  message: Type.String(),
  errors: Type.Optional(Type.Array(FieldError)),
});
export type FailEnvelope = Static<typeof FailEnvelope>;

/** JSend `error`: our fault (5xx). The message never carries internals. */
export const ErrorEnvelope = Type.Object({
  status: Type.Literal('error'),
  code: ErrorCodeField,
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
