import { Type, type Static } from 'typebox';
import type { Checked } from '../validation.ts';
import { literalUnion } from './common.ts';
import { asMessage, message, text, type Message } from '../i18n.ts';

export const TOKEN_ACCESS = ['read', 'write'] as const;
export type TokenAccess = (typeof TOKEN_ACCESS)[number];

export const TOKEN_POLICY = {
  /** Tokens per account (`POST /api/tokens` past it: 409 LIMIT_REACHED). */
  perUser: 20,
  nameMaxLength: 60,
  expiresInDaysMax: 365,
  /** What every secret starts with, so a leaked one is recognisable (secret scanners, logs). */
  secretPrefix: 'tw_',
  /** `last_used_at` is written at most this often per token (ms): most calls write nothing. */
  touchIntervalMs: 60_000,
} as const;

/** The expiry choices the web app offers (days; null: never). The API takes any 1–365. */
export const TOKEN_EXPIRY_CHOICES = [null, 30, 90, 365] as const;

export const TokenAccessField = literalUnion(TOKEN_ACCESS, {
  description: '`read`: GET requests only. `write`: everything its user may do, except managing tokens, the password, push subscriptions and the account.',
});

export const TokenSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String(),
  access: TokenAccessField,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: never expires.' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'The last call made with it (to the minute); null: never used.',
  }),
});
export type ApiToken = Static<typeof TokenSchema>;

export const CreateTokenBody = Type.Object({
  name: Type.String({ description: `Trimmed; 1 to ${TOKEN_POLICY.nameMaxLength} characters.`, maxLength: 1000 }),
  access: TokenAccessField,
  expiresInDays: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: TOKEN_POLICY.expiresInDaysMax }), Type.Null()], { description: 'Days until it stops working; absent or null: never.' }),
  ),
});
export type CreateTokenBody = Static<typeof CreateTokenBody>;

export const TokenParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const TokenListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ tokens: Type.Array(TokenSchema) }),
});
export type TokenListEnvelope = Static<typeof TokenListEnvelope>;

export const CreatedTokenEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    token: TokenSchema,
    secret: Type.String({ description: 'The token itself (`tw_…`): shown this once, stored only as its SHA-256.' }),
  }),
});
export type CreatedTokenEnvelope = Static<typeof CreatedTokenEnvelope>;

export const TOKEN_MESSAGES = {
  created: text('Token created. Copy it now: you will not see it again.'),
  invalid: text('This API token is not valid: it is unknown, revoked or expired.'),
  readOnly: text('This API token can only read (GET). Create a token with write access to change things.'),
  notAllowed: text('API tokens cannot manage tokens, the password, sessions, push notifications or the account. Sign in to do this.'),
  tooMany: message('At most {max} API tokens per account. Revoke one you no longer use.', { max: TOKEN_POLICY.perUser }),
  notFound: text('No such token.'),
  nameRequired: text('Give the token a name.'),
  nameTooLong: message('A token name is at most {max} characters.', { max: TOKEN_POLICY.nameMaxLength }),
} as const;

/** The name as stored (trimmed), or what is wrong with it; the server and the form run it alike. */
export function checkTokenName(raw: string): Checked<string, Message> {
  const name = raw.trim();
  if (name.length === 0) return { ok: false, message: asMessage(TOKEN_MESSAGES.nameRequired) };
  if (name.length > TOKEN_POLICY.nameMaxLength) return { ok: false, message: TOKEN_MESSAGES.nameTooLong };
  return { ok: true, value: name };
}
