import { Type, type Static } from 'typebox';

export const ProviderSummary = Type.Object({
  id: Type.String({ description: 'Goes in the sign-in link: /api/auth/oidc/{id}/start.' }),
  name: Type.String({ description: 'What the button says: "Sign in with <name>".' }),
});
export type ProviderSummary = Static<typeof ProviderSummary>;

export const ProvidersEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    providers: Type.Array(ProviderSummary),
    error: Type.Union([Type.String(), Type.Null()], { description: 'The text for the `error` code asked about, or null.' }),
  }),
});
export type ProvidersEnvelope = Static<typeof ProvidersEnvelope>;

export const ProvidersQuery = Type.Object({
  error: Type.Optional(Type.String({ maxLength: 64, description: 'A code the sign-in page was sent back with (`/login?error=CODE`): its text comes in `data.error`.' })),
});

export const StartQuery = Type.Object({
  returnTo: Type.Optional(Type.String({ maxLength: 512, description: 'A path of this app to go to after signing in (anything else: /).' })),
});

export const IdentitySchema = Type.Object({
  providerId: Type.String(),
  providerName: Type.String(),
  email: Type.String({ description: 'The address the provider gave when it was linked.' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Identity = Static<typeof IdentitySchema>;

export const IdentitiesEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    identities: Type.Array(IdentitySchema),
    providers: Type.Array(ProviderSummary, { description: 'Every provider of this server (those not linked yet can be).' }),
    hasPassword: Type.Boolean(),
  }),
});
export type IdentitiesEnvelope = Static<typeof IdentitiesEnvelope>;

export const LinkEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ url: Type.String({ description: 'The provider\'s page to send the browser to.' }) }),
});
export type LinkEnvelope = Static<typeof LinkEnvelope>;

export const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 64 }) });
