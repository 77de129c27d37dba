import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { PASSKEY_MESSAGES, PASSKEY_POLICY } from '#shared/passkeys.ts';
import { PasskeyOptionsEnvelope, PasskeySignInBody } from '#shared/schemas/passkeys.ts';
import { UserEnvelope } from '#shared/schemas/users.ts';
import { rateLimited } from '../../errors.ts';
import { checkPasskeySignIn, passkeyRefused, signInOptions, type PasskeySignIn } from '../../services/passkeys.ts';
import { errorResponses, serializable } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/**
 * Sign-in with a passkey, no e-mail typed: the browser offers the passkeys it holds for this
 * site and the one chosen names its account. A passkey with user verification is both factors,
 * so no code is asked after it; the session starts as after a password.
 */
const passkeySignIn: FastifyPluginAsyncTypebox = (fastify) => {
  const { rateLimits, sessions } = fastify;

  fastify.post(
    '/users/login/passkey/options',
    {
      schema: {
        tags: ['users'],
        summary: 'Start a passkey sign-in: WebAuthn request options for navigator.credentials.get()',
        description:
          `No account is named (discoverable credentials). The challenge is good for ${PASSKEY_POLICY.challengeTtlMs / 60_000} minutes and once. ` +
          'Each call counts among the IP\'s sign-in attempts (100 in 15 minutes: 429 with Retry-After).',
        response: { 200: serializable(PasskeyOptionsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const ipWait = await rateLimits.loginPerIp.hit(request.ip);
      if (ipWait > 0) throw rateLimited(ipWait);
      return { status: 'success', data: { options: await signInOptions(fastify) } } as const;
    },
  );

  fastify.post(
    '/users/login/passkey',
    {
      schema: {
        tags: ['users'],
        summary: 'Sign in with a passkey: the browser\'s answer to the request options; sets the session cookie',
        description:
          'Answers like a password sign-in, with no second step (a passkey with user verification is both factors). ' +
          '401 PASSKEY_NOT_ACCEPTED for an unknown or removed passkey, an unknown, expired or used challenge, another origin or RP ID, ' +
          'no user verification, a bad signature or a counter that went back. A refused answer counts among the IP\'s sign-in attempts.',
        body: PasskeySignInBody,
        response: { 200: serializable(UserEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { waitMs, hitId } = await rateLimits.loginPerIp.attempt(request.ip);
      if (hitId === null) throw rateLimited(waitMs);
      let checked: PasskeySignIn;
      try {
        checked = await checkPasskeySignIn(fastify, request.body.response as unknown as AuthenticationResponseJSON);
        await sessions.start(request, reply, checked.user.id, checked.recordUse);
      } catch (error) {
        return passkeyRefused(request.log, error, 401, PASSKEY_MESSAGES.signInFailed);
      }
      // Only refused answers count against the IP: this one signed in.
      await rateLimits.loginPerIp.refund(hitId);
      return { status: 'success', message: translateFor(request, SERVER_MESSAGES.loginSuccess), data: { user: { fullName: checked.user.fullName, email: checked.user.email } } } as const;
    },
  );

  return Promise.resolve();
};

export default passkeySignIn;
