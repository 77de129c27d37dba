import { Type, type Static } from 'typebox';
import { PASSKEY_POLICY } from '../passkeys.ts';

export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The last sign-in with it; null when never used.' }),
  backedUp: Type.Boolean({ description: 'The authenticator said the passkey is backed up (synced), so losing one device does not lose it.' }),
});
export type Passkey = Static<typeof Passkey>;

export const PasskeyListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ passkeys: Type.Array(Passkey) }),
});
export type PasskeyListEnvelope = Static<typeof PasskeyListEnvelope>;

export const PasskeyEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ passkey: Passkey }),
});
export type PasskeyEnvelope = Static<typeof PasskeyEnvelope>;

/** WebAuthn options as @simplewebauthn/browser takes them (`optionsJSON`). */
export const PasskeyOptionsEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ options: Type.Unsafe<object>(Type.Record(Type.String(), Type.Unknown())) }),
});
export type PasskeyOptionsEnvelope = Static<typeof PasskeyOptionsEnvelope>;

/** A credential's answer as @simplewebauthn/browser gives it; the library checks its inside. */
const CredentialResponse = Type.Object(
  {
    id: Type.String({ maxLength: 1400 }),
    rawId: Type.String({ maxLength: 1400 }),
    type: Type.Literal('public-key'),
    response: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: true, description: 'What startRegistration()/startAuthentication() of @simplewebauthn/browser returned.' },
);

const NameInput = Type.String({ maxLength: 200, description: `1 to ${PASSKEY_POLICY.nameMaxLength} characters once trimmed.` });

export const AddPasskeyBody = Type.Object({
  name: Type.Optional(NameInput),
  response: CredentialResponse,
});
export type AddPasskeyBody = Static<typeof AddPasskeyBody>;

export const RenamePasskeyBody = Type.Object({ name: NameInput });
export type RenamePasskeyBody = Static<typeof RenamePasskeyBody>;

export const PasskeySignInBody = Type.Object({ response: CredentialResponse });
export type PasskeySignInBody = Static<typeof PasskeySignInBody>;

export const PasskeyParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
