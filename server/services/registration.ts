import { atAllowedDomain, registrationMessage, type RegistrationPolicy } from '#shared/registration.ts';
import { AppError } from '../errors.ts';
import type { BoardsRepository } from '../repositories/boards-repository.ts';

/**
 * Whether `email` (validated, lower-cased) may register under `policy`; throws 403
 * REGISTRATION_CLOSED saying why when not. The answer does not depend on whether the address
 * has an account: an account holder asking for a sign-up code is refused like anyone else, so
 * the refusal tells nobody which addresses are registered. Called by the sign-up's first step
 * (POST /api/otps), before any code or mail, and again by its last (POST /api/users/register),
 * so that a code mailed before the policy changed makes no account after it.
 */
export async function checkMayRegister(policy: RegistrationPolicy, boards: BoardsRepository, email: string): Promise<void> {
  const message = registrationMessage(policy);
  if (message === null) return;
  const allowed = policy.mode !== 'closed' && atAllowedDomain(email, policy.domains) && (policy.mode === 'open' || (await boards.isInvited(email)));
  if (!allowed) throw new AppError(403, 'REGISTRATION_CLOSED', message);
}
