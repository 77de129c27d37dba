import { Type, type Static } from 'typebox';
import { EmailInput } from './common.ts';
import { PublicUser } from './users.ts';

/** Which optional mails the signed-in person wants; codes and password resets always go out. */
export const MailSettings = Type.Object({
  notifyAssigned: Type.Boolean({ description: 'A mail when someone else assigns you a task.' }),
  notifyReminders: Type.Boolean({ description: '"Due soon" and "overdue" mails for tasks you created or are assigned.' }),
  notifyBoards: Type.Boolean({ description: 'A mail when someone adds you to a board.' }),
  notifyMentions: Type.Boolean({ description: 'A mail when someone mentions you (`@your-address`) in a comment on a task you can see.' }),
});
export type MailSettings = Static<typeof MailSettings>;

export const MailSettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ settings: MailSettings }),
});
export type MailSettingsEnvelope = Static<typeof MailSettingsEnvelope>;

/** GET /api/users/me/settings: the mail settings, and whether the account is an instance admin. */
export const MeSettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ settings: MailSettings, isAdmin: Type.Optional(Type.Boolean({ description: 'An instance admin: the Admin page is theirs.' })) }),
});
export type MeSettingsEnvelope = Static<typeof MeSettingsEnvelope>;

export const UpdateMailSettingsBody = Type.Partial(MailSettings, { minProperties: 1 });
export type UpdateMailSettingsBody = Static<typeof UpdateMailSettingsBody>;

export const UnsubscribeQuery = Type.Object({ token: Type.String({ maxLength: 1000 }) });

/** What a one-click unsubscribe turned off. */
export const UnsubscribeEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({
    email: Type.String(),
    kind: Type.Union([Type.Literal('assigned'), Type.Literal('reminders'), Type.Literal('boards'), Type.Literal('mentions')]),
  }),
});
export type UnsubscribeEnvelope = Static<typeof UnsubscribeEnvelope>;

export const PasswordResetBody = Type.Object({ email: EmailInput });
export type PasswordResetBody = Static<typeof PasswordResetBody>;

export const PasswordResetConfirmBody = Type.Object({
  email: EmailInput,
  otp: Type.String({ maxLength: 32 }),
  password: Type.String({ maxLength: 4096 }),
});
export type PasswordResetConfirmBody = Static<typeof PasswordResetConfirmBody>;

export const UpdateProfileBody = Type.Object({ fullName: Type.String({ maxLength: 1000 }) });
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ maxLength: 4096 }),
  newPassword: Type.String({ maxLength: 4096 }),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const DeleteAccountBody = Type.Object({ password: Type.String({ maxLength: 4096 }) });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

export const ProfileEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ user: PublicUser }),
});
export type ProfileEnvelope = Static<typeof ProfileEnvelope>;
