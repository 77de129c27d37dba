import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * What a refused request must not change: accounts, tasks and one-time codes (all columns but
 * the wrong-try counter, which a wrong code is meant to raise). Sessions and login failures are
 * left out on purpose: a refused request may slide its own session, delete an expired one, or
 * count a failed sign-in; `sessionHashes` checks that no session appears.
 */
export async function snapshot(db: Kysely<DB>) {
  const [users, tasks, otpCodes] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('tasks').selectAll().orderBy('id').execute(),
    db.selectFrom('otpCodes').select(['id', 'email', 'purpose', 'codeHash', 'expiresAt', 'consumedAt', 'createdAt']).orderBy('id').execute(),
  ]);
  return { users, tasks, otpCodes };
}

export async function sessionHashes(db: Kysely<DB>): Promise<Set<string>> {
  const rows = await db.selectFrom('sessions').select('tokenHash').execute();
  return new Set(rows.map((r) => r.tokenHash));
}
