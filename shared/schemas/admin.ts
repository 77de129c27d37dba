import { Type, type Static } from 'typebox';
import { ADMIN_ACTIONS, ADMIN_POLICY, SIGN_IN_METHODS } from '../admin.ts';
import { EmailInput, literalUnion } from './common.ts';

export const AdminAccount = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The latest of its last sign-in, session use and API token use; null: never.' }),
  boards: Type.Integer({ description: 'Boards it is a member of (its personal board included).' }),
  storageBytes: Type.Integer({ description: 'Bytes of the attachments it uploaded.' }),
  signInMethods: Type.Array(literalUnion(SIGN_IN_METHODS)),
  isAdmin: Type.Boolean(),
  deactivatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type AdminAccount = Static<typeof AdminAccount>;

export const AccountsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: ADMIN_POLICY.searchMax, description: 'Part of the address or the name (any case).' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
});
export type AccountsQuery = Static<typeof AccountsQuery>;

export const AccountsEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    accounts: Type.Array(AdminAccount),
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  }),
});
export type AccountsEnvelope = Static<typeof AccountsEnvelope>;

export const AccountEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ account: AdminAccount }),
});
export type AccountEnvelope = Static<typeof AccountEnvelope>;

export const AccountParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const InviteBody = Type.Object({ email: EmailInput });
export type InviteBody = Static<typeof InviteBody>;

export const AdminSetting = Type.Object({
  name: Type.String({ description: 'The environment variable.' }),
  value: Type.String({ description: 'Its value as the server uses it; a secret only as "set" or "not set", URLs without credentials.' }),
  said: Type.Boolean({ description: 'Whether `value` is words of the server in the reader\'s language ("set", "not set", "unset", …) rather than the value itself.' }),
});
export type AdminSetting = Static<typeof AdminSetting>;

export const SettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ settings: Type.Array(AdminSetting) }),
});
export type SettingsEnvelope = Static<typeof SettingsEnvelope>;

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actorEmail: Type.String({ description: 'The admin; "admin command" for npm run admin.' }),
  action: literalUnion(ADMIN_ACTIONS),
  subjectEmail: Type.Union([Type.String(), Type.Null()]),
  detail: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })) });

export const AuditEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ entries: Type.Array(AuditEntry), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }),
});
export type AuditEnvelope = Static<typeof AuditEnvelope>;
