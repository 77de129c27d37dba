import type { FastifyInstance } from 'fastify';
import { LOGIN_POLICY } from '#shared/constants.ts';
import { rateLimited } from '../errors.ts';

/**
 * The per-account lock-out of password checks: after 10 failures for an address in 15 minutes,
 * 429 until the oldest leaves the window. Sign-in and a signed-in person's own password checks
 * (change password, delete account) share it, so a stolen cookie buys no more guesses, and no
 * more argon2 work on libuv's few threads, than the sign-in form. Counted per address, known or
 * not (so it reveals nothing), in the database. Each attempt is recorded as a failure *before*
 * the password is checked, under the address's lock, so a burst of concurrent guesses gets at
 * most 10 verdicts; a success clears them (`loginFailuresRepository.clear`).
 */
export async function countPasswordAttempt(fastify: FastifyInstance, email: string): Promise<void> {
  const { clock, loginFailuresRepository: failures, throttleLocksRepository: locks } = fastify;
  const now = clock.now();
  const nowIso = now.toISOString();
  const windowStart = new Date(now.getTime() - LOGIN_POLICY.windowMs).toISOString();
  const lockedFor = await fastify.db.transaction().execute(async (trx) => {
    await locks.take(`login:${email}`, nowIso, trx);
    const recent = await failures.windowSince(email, windowStart, trx);
    if (recent.count >= LOGIN_POLICY.maxFailuresPerEmail && recent.oldest !== null) {
      return Date.parse(recent.oldest) + LOGIN_POLICY.windowMs - now.getTime();
    }
    await failures.record(email, nowIso, windowStart, trx);
    return 0;
  });
  if (lockedFor > 0) throw rateLimited(lockedFor);
}
