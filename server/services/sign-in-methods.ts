import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/prepared.ts';
import { AppError } from '../errors.ts';
import { PASSKEY_MESSAGES } from '#shared/passkeys.ts';
import { hasSecondStep } from './two-step.ts';

/**
 * The ways an account can sign in, counted after a removal inside its transaction: a password
 * (every account has one today) and its passkeys. Removing the last one answers 409
 * LAST_SIGN_IN_METHOD and the transaction rolls back, so an account can never lock itself out.
 * Other ways in (a linked single sign-on provider) belong in this count too.
 */
export async function checkSignInMethodsLeft(fastify: FastifyInstance, userId: string, ex: Executor): Promise<void> {
  const user = await fastify.usersRepository.findById(userId, ex);
  // An account made without a password holds none (an empty or missing hash).
  const hasPassword = Boolean(user?.passwordHash);
  const passkeys = await fastify.passkeysRepository.countOf(userId, ex);
  if (!hasPassword && passkeys === 0) throw new AppError(409, 'LAST_SIGN_IN_METHOD', PASSKEY_MESSAGES.lastSignInMethod);
}

/**
 * Whether the account meets REQUIRE_2FA: an authenticator app turned on, or a passkey (a passkey
 * sign-in is both factors on its own). Password sign-in asks for a code only with the app.
 */
export async function meetsSecondStepRule(fastify: FastifyInstance, userId: string, ex?: Executor): Promise<boolean> {
  return (await hasSecondStep(fastify, userId, ex)) || (await fastify.passkeysRepository.countOf(userId, ex)) > 0;
}
