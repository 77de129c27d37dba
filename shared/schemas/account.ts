import { Type, type Static } from 'typebox';
import { HOUR_CYCLES, LANGUAGES, WEEK_STARTS } from '../languages.ts';
import { EmailInput, literalUnion } from './common.ts';
import { PublicUser } from './users.ts';

/** Which optional mails the signed-in person wants; codes and password resets always go out. */
export const MailSettings = Type.Object({
  notifyAssigned: Type.Boolean({ description: 'A mail when someone else assigns you a task.' }),
  notifyReminders: Type.Boolean({ description: '"Due soon" and "overdue" mails for tasks you created or are assigned.' }),
  notifyBoards: Type.Boolean({ description: 'A mail when someone adds you to a board.' }),
  notifyMentions: Type.Boolean({ description: 'A mail when someone mentions you (`@your-address`) in a comment on a task you can see.' }),
});
export type MailSettings = Static<typeof MailSettings>;

/** The account's language and formats: what the app and the server's texts speak, and how dates and times look. */
const LANGUAGE_DESCRIPTION = `The account's language: one of ${LANGUAGES.join(', ')}. Its answers, mails and notifications are written in it.`;
const WEEK_START_DESCRIPTION = 'The first day of the week in calendars.';
const HOUR_CYCLE_DESCRIPTION = '`h12`: 1:00 PM; `h23`: 13:00.';
export const LanguageSettings = Type.Object({
  language: literalUnion(LANGUAGES, { description: LANGUAGE_DESCRIPTION }),
  weekStart: literalUnion(WEEK_STARTS, { description: WEEK_START_DESCRIPTION }),
  hourCycle: literalUnion(HOUR_CYCLES, { description: HOUR_CYCLE_DESCRIPTION }),
});
export type LanguageSettings = Static<typeof LanguageSettings>;

/** Every setting of `/users/me/settings`: the optional mails, the language and formats. */
export const AccountSettings = Type.Object({ ...MailSettings.properties, ...LanguageSettings.properties });
export type AccountSettings = Static<typeof AccountSettings>;

export const MailSettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ settings: AccountSettings }),
});
export type MailSettingsEnvelope = Static<typeof MailSettingsEnvelope>;

/** GET /api/users/me/settings: the mail, language and format settings, and whether the account is an instance admin. */
export const MeSettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ settings: AccountSettings, isAdmin: Type.Optional(Type.Boolean({ description: 'An instance admin: the Admin page is theirs.' })) }),
});
export type MeSettingsEnvelope = Static<typeof MeSettingsEnvelope>;

/** Any of the settings; the language is matched ignoring case (`PT-br` is `pt-BR`). */
export const UpdateMailSettingsBody = Type.Partial(
  Type.Object({
    ...MailSettings.properties,
    language: Type.String({ maxLength: 35, description: `${LANGUAGE_DESCRIPTION} Matched ignoring case; the answer gives it as listed.` }),
    weekStart: LanguageSettings.properties.weekStart,
    hourCycle: LanguageSettings.properties.hourCycle,
  }),
  { minProperties: 1 },
);
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
