import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.ts';
import { UserEnvelope } from './users.ts';
import { TWO_STEP_POLICY } from '../two-step.ts';

/** A password sign-in that still needs its second step: the token to send with the code. */
export const SecondStepChallenge = Type.Object({
  token: Type.String({ description: 'Send it back with the code to POST /api/users/login/second-step.' }),
  expiresAt: Type.String({ format: 'date-time', description: `${TWO_STEP_POLICY.tokenTtlMs / 60_000} minutes after the password was accepted.` }),
});
export type SecondStepChallenge = Static<typeof SecondStepChallenge>;

export const SecondStepEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ secondStep: SecondStepChallenge }),
});
export type SecondStepEnvelope = Static<typeof SecondStepEnvelope>;

/** What a password sign-in answers: signed in, or a second step to take. */
export const LoginEnvelope = Type.Union([UserEnvelope, SecondStepEnvelope]);
export type LoginEnvelope = Static<typeof LoginEnvelope>;

const CodeInput = Type.String({ maxLength: 32, description: `The ${TWO_STEP_POLICY.digits}-digit code the authenticator app shows now.` });
const RecoveryCodeInput = Type.String({ maxLength: 64, description: 'One of the recovery codes shown when two-step sign-in was turned on; each works once.' });

export const SecondStepBody = Type.Object({
  token: Type.String({ maxLength: 100 }),
  code: Type.Optional(CodeInput),
  recoveryCode: Type.Optional(RecoveryCodeInput),
});
export type SecondStepBody = Static<typeof SecondStepBody>;

export const TwoStepStatusEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    twoStep: Type.Object({
      enabled: Type.Boolean(),
      recoveryCodesLeft: Type.Integer({ description: 'Unused recovery codes (0 when off).' }),
      required: Type.Boolean({ description: 'The server requires a second step of every account (REQUIRE_2FA).' }),
    }),
  }),
});
export type TwoStepStatusEnvelope = Static<typeof TwoStepStatusEnvelope>;

export const TwoStepSetupEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({
    secret: Type.String({ description: 'The base32 secret, for typing into an app by hand.' }),
    uri: Type.String({ description: 'The otpauth:// URI the QR code holds.' }),
    qrSvg: Type.String({ description: 'The QR code of the URI, an SVG document.' }),
  }),
});
export type TwoStepSetupEnvelope = Static<typeof TwoStepSetupEnvelope>;

export const ConfirmTwoStepBody = Type.Object({ code: CodeInput });
export type ConfirmTwoStepBody = Static<typeof ConfirmTwoStepBody>;

export const RecoveryCodesEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ recoveryCodes: Type.Array(Type.String(), { description: `${TWO_STEP_POLICY.recoveryCodeCount} codes, shown this once.` }) }),
});
export type RecoveryCodesEnvelope = Static<typeof RecoveryCodesEnvelope>;

const PasswordInput = Type.String({ maxLength: 4096, description: `The account's password (${LIMITS.passwordMin} characters or more).` });

export const DisableTwoStepBody = Type.Object({
  password: PasswordInput,
  code: Type.Optional(CodeInput),
  recoveryCode: Type.Optional(RecoveryCodeInput),
});
export type DisableTwoStepBody = Static<typeof DisableTwoStepBody>;

export const RenewRecoveryCodesBody = Type.Object({ password: PasswordInput, code: CodeInput });
export type RenewRecoveryCodesBody = Static<typeof RenewRecoveryCodesBody>;
