import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.ts';
import { EmailInput } from './common.ts';

export const RequestOtpBody = Type.Object({ email: EmailInput });
export type RequestOtpBody = Static<typeof RequestOtpBody>;

export const RegisterBody = Type.Object({
  email: EmailInput,
  fullName: Type.String({
    maxLength: 1000,
    description: `Trimmed; ${LIMITS.fullNameMin} to ${LIMITS.fullNameMax} characters.`,
  }),
  otp: Type.String({ maxLength: 32, description: `The ${LIMITS.otpLength}-digit code from the e-mail.` }),
  password: Type.String({
    maxLength: 4096,
    description: `${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters, not the e-mail address.`,
  }),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  email: EmailInput,
  password: Type.String({ maxLength: 4096 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const PublicUser = Type.Object({ fullName: Type.String(), email: Type.String() });
export type PublicUser = Static<typeof PublicUser>;

export const UserEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ user: PublicUser }),
});
export type UserEnvelope = Static<typeof UserEnvelope>;

export const RegistrationEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    registration: Type.Object({
      mode: Type.Union([Type.Literal('open'), Type.Literal('invite'), Type.Literal('closed')]),
      domains: Type.Array(Type.String()),
      message: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
});
export type RegistrationEnvelope = Static<typeof RegistrationEnvelope>;
