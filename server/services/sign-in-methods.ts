import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/prepared.ts';
import { AppError } from '../errors.ts';
import { LAST_SIGN_IN_METHOD_MESSAGE } from '#shared/sign-in-methods.ts';
import { hasSecondStep } from './two-step.ts';

/** Before a way to sign in is removed: the account's lock, so two removals at once cannot both take a last-but-one way. */
export async function lockSignInMethods(fastify: FastifyInstance, userId: string, trx: Executor): Promise<void> {
  await fastify.throttleLocksRepository.take(fastify.signInMethodsRepository.lockOf(userId), fastify.clock.now().toISOString(), trx);
}

/**
 * After a way to sign in was removed, in its transaction (under lockSignInMethods): none left
 * answers 409 LAST_SIGN_IN_METHOD and the transaction rolls back, so an account can never lock
 * itself out. What counts is server/repositories/sign-in-methods-repository.ts.
 */
export async function checkSignInMethodsLeft(fastify: FastifyInstance, userId: string, trx: Executor): Promise<void> {
  if ((await fastify.signInMethodsRepository.countOf(userId, trx)) < 1) throw new AppError(409, 'LAST_SIGN_IN_METHOD', LAST_SIGN_IN_METHOD_MESSAGE);
}

/**
 * Whether the account meets REQUIRE_2FA: an authenticator app turned on, or a passkey (a passkey
 * sign-in is both factors on its own). Password sign-in asks for a code only with the app.
 */
export async function meetsSecondStepRule(fastify: FastifyInstance, userId: string, ex?: Executor): Promise<boolean> {
  return (await hasSecondStep(fastify, userId, ex)) || (await fastify.passkeysRepository.countOf(userId, ex)) > 0;
}
