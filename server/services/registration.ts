import type { FastifyInstance } from 'fastify';
import { atAllowedDomain, registrationMessage, type RegistrationPolicy } from '#shared/registration.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError } from '../errors.ts';
import { instanceInvitations } from '../repositories/admin-repository.ts';

/**
 * Whether `email` (validated, lower-cased) may register under `policy`; throws 403
 * REGISTRATION_CLOSED saying why when not. With `invite`, an invitation to a board or an
 * instance admin's invitation lets the address in; REGISTRATION_DOMAINS applies to invited
 * addresses as to everyone (docs/decisions/161-instance-invitations.md). The answer does not
 * depend on whether the address has an account: an account holder asking for a sign-up code is
 * refused like anyone else, so the refusal tells nobody which addresses are registered. Called by
 * the sign-up's first step (POST /api/otps), before any code or mail, and again by its last (POST
 * /api/users/register), so that a code mailed before the policy changed makes no account after it.
 */
export async function checkMayRegister(policy: RegistrationPolicy, app: Pick<FastifyInstance, 'boardsRepository' | 'db'>, email: string): Promise<void> {
  const message = registrationMessage(policy);
  if (message === null) return;
  const allowed = policy.mode !== 'closed' && atAllowedDomain(email, policy.domains) && (policy.mode === 'open' || (await isInvited(app, email)));
  if (!allowed) throw new AppError(403, 'REGISTRATION_CLOSED', message);
}

async function isInvited(app: Pick<FastifyInstance, 'boardsRepository' | 'db'>, email: string): Promise<boolean> {
  if (await app.boardsRepository.isInvited(email)) return true;
  return instanceInvitations.isInvited(app.db, email);
}

/** The address registered: an instance admin's invitation of it is used up. */
export async function dropInstanceInvitation(trx: Executor, email: string): Promise<void> {
  await instanceInvitations.drop(trx, email);
}
