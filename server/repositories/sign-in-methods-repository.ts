import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { NO_PASSWORD_HASH } from '../services/passwords.ts';

/**
 * The ways an account can sign in, counted in ONE place: its password (when it has one), each
 * provider account linked to it and each passkey. Whatever removes a way to sign in (unlinking
 * a provider, removing a passkey) does so under `lockOf`'s lock and then refuses, rolling back,
 * when `countOf` is left at 0 (services/sign-in-methods.ts, 409 LAST_SIGN_IN_METHOD).
 */
export function createSignInMethodsRepository(db: Kysely<DB>) {
  return {
    async countOf(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('users')
        .select([
          sql<number>`case when users.password_hash = ${NO_PASSWORD_HASH} then 0 else 1 end`.as('password'),
          (eb) => eb.selectFrom('userIdentities').select((e) => e.fn.countAll<number | string>().as('n')).whereRef('userIdentities.userId', '=', 'users.id').as('identities'),
          (eb) => eb.selectFrom('passkeys').select((e) => e.fn.countAll<number | string>().as('n')).whereRef('passkeys.userId', '=', 'users.id').as('passkeys'),
        ])
        .where('users.id', '=', userId)
        .executeTakeFirst();
      if (row === undefined) return 0;
      return row.password + Number(row.identities ?? 0) + Number(row.passkeys ?? 0);
    },

    /** The throttle lock key that serializes changes to the account's ways to sign in. */
    lockOf(userId: string): string {
      return `sign-in-methods:${userId}`;
    },
  };
}

export type SignInMethodsRepository = ReturnType<typeof createSignInMethodsRepository>;
