import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'typebox';
import { PASSKEY_MESSAGES, PASSKEY_POLICY } from '#shared/passkeys.ts';
import {
  AddPasskeyBody,
  PasskeyEnvelope,
  PasskeyListEnvelope,
  PasskeyOptionsEnvelope,
  PasskeyParams,
  RenamePasskeyBody,
} from '#shared/schemas/passkeys.ts';
import { AppError, validationFailed } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import { addPasskey, passkeyRefused, registrationOptions } from '../../services/passkeys.ts';
import { checkSignInMethodsLeft, lockSignInMethods } from '../../services/sign-in-methods.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

const notFound = () => new AppError(404, 'NOT_FOUND', PASSKEY_MESSAGES.notFound);

/** A passkey's name: trimmed, 1 to 60 characters; `fallback` when none was given. */
function checkName(name: string | undefined, fallback?: string): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '' && fallback !== undefined) return fallback;
  if (trimmed.length < 1 || trimmed.length > PASSKEY_POLICY.nameMaxLength) throw validationFailed([{ field: 'name', message: PASSKEY_MESSAGES.nameInvalid }]);
  return trimmed;
}

/**
 * Passkeys on the account page: options to add one, add it (named), list, rename, remove. With
 * a session only (not an API token); listing and adding are open to an account that REQUIRE_2FA
 * holds back, since a passkey is one way to satisfy it.
 */
const passkeys: FastifyPluginAsyncTypebox = (fastify) => {
  const setupOnly = { apiTokens: 'forbidden', secondStep: 'setup' } as const;
  const accountOnly = { apiTokens: 'forbidden' } as const;
  const repo = fastify.passkeysRepository;

  fastify.get(
    '/account/passkeys',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'My passkeys: name, when made, when last used',
        description: 'Oldest first. `backedUp`: the authenticator said the passkey is synced or backed up.',
        security: sessionSecurity,
        response: { 200: serializable(PasskeyListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { passkeys: await repo.listOf(currentUser(request).id) } }) as const,
  );

  fastify.post(
    '/account/passkeys/options',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'Start adding a passkey: WebAuthn creation options for navigator.credentials.create()',
        description:
          `A discoverable credential with user verification. The challenge is good for ${PASSKEY_POLICY.challengeTtlMs / 60_000} minutes and once, ` +
          'for this account only; send the answer to POST /api/account/passkeys.',
        security: sessionSecurity,
        response: { 200: serializable(PasskeyOptionsEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { options: await registrationOptions(fastify, currentUser(request)) } }) as const,
  );

  fastify.post(
    '/account/passkeys',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'Add a passkey: the browser\'s answer to the creation options, and a name',
        description:
          `\`name\`: 1 to ${PASSKEY_POLICY.nameMaxLength} characters ("${PASSKEY_POLICY.defaultName}" when left out). ` +
          '400 PASSKEY_NOT_ACCEPTED for an answer to an unknown, expired or used challenge, from another origin or RP ID, ' +
          'without user verification, or that does not verify.',
        security: sessionSecurity,
        body: AddPasskeyBody,
        response: { 201: serializable(PasskeyEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      const name = checkName(request.body.name, PASSKEY_POLICY.defaultName);
      try {
        const passkey = await addPasskey(fastify, id, name, request.body.response as unknown as RegistrationResponseJSON);
        return await reply.code(201).send({ status: 'success', message: translateFor(request, PASSKEY_MESSAGES.added), data: { passkey } });
      } catch (error) {
        return passkeyRefused(request.log, error, 400, PASSKEY_MESSAGES.notAdded);
      }
    },
  );

  fastify.patch(
    '/account/passkeys/:id',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Rename one of my passkeys',
        description: `\`name\`: 1 to ${PASSKEY_POLICY.nameMaxLength} characters once trimmed (400 VALIDATION_FAILED otherwise). 404 for a passkey that is not mine.`,
        security: sessionSecurity,
        params: PasskeyParams,
        body: RenamePasskeyBody,
        response: { 200: serializable(PasskeyEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const name = checkName(request.body.name);
      const passkey = await repo.rename(currentUser(request).id, request.params.id, name);
      if (passkey === undefined) throw notFound();
      return { status: 'success', message: translateFor(request, PASSKEY_MESSAGES.renamed), data: { passkey } } as const;
    },
  );

  fastify.delete(
    '/account/passkeys/:id',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Remove one of my passkeys; it signs in no more',
        description: '409 LAST_SIGN_IN_METHOD when it is the account\'s last way to sign in (no password and no other passkey).',
        security: sessionSecurity,
        params: PasskeyParams,
        response: { 204: Type.Null({ description: 'Removed; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      await fastify.db.transaction().execute(async (trx) => {
        await lockSignInMethods(fastify, id, trx);
        if (!(await repo.remove(id, request.params.id, trx))) throw notFound();
        await checkSignInMethodsLeft(fastify, id, trx);
      });
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default passkeys;
