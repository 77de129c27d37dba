import type { Kysely } from 'kysely';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { DB, UsersTable } from '../db/schema.ts';

export function createUsersRepository(db: Kysely<DB>) {
  const byEmail = prepare<{ email: string }, Pick<UsersTable, 'id' | 'email' | 'fullName' | 'passwordHash'>>(
    db.selectFrom('users').select(['id', 'email', 'fullName', 'passwordHash']).where('email', '=', slot('email')),
  );

  return {
    async findByEmail(email: string, ex: Executor = db) {
      const { rows } = await byEmail.execute(ex, { email });
      return rows[0];
    },

    async insert(user: UsersTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('users').values(user).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
