import type { Insertable, Kysely, Updateable } from 'kysely';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import { PERSONAL_BOARD_NAME } from '#shared/constants.ts';
import { ADMIN_ROLE } from '#shared/rights.ts';
import type { DB, UsersTable } from '../db/schema.ts';

/** A new account's row: its language, week start and clock are always given. */
/**
 * A deleted account's row stays as a nameplate for what remains under the person's name, its
 * address replaced by one at this reserved domain (RFC 2606), which no one can register: the
 * admin lists leave such rows out.
 */
export const DELETED_ACCOUNT_DOMAIN = 'deleted.invalid';
/** The address a deleted account's row gets: unique, and at DELETED_ACCOUNT_DOMAIN. */
export const deletedAccountAddress = (unique: string) => `deleted-${unique}@${DELETED_ACCOUNT_DOMAIN}`;

export type NewUser = Insertable<UsersTable> & Required<Pick<Insertable<UsersTable>, 'language' | 'weekStart' | 'hourCycle'>>;

export function createUsersRepository(db: Kysely<DB>) {
  const byEmail = prepare<{ email: string }, Pick<UsersTable, 'id' | 'email' | 'fullName' | 'passwordHash'> & { deactivatedAt: string | null; language: string }>(
    db.selectFrom('users').select(['id', 'email', 'fullName', 'passwordHash', 'deactivatedAt', 'language']).where('email', '=', slot('email')),
  );

  return {
    async findByEmail(email: string, ex: Executor = db) {
      const { rows } = await byEmail.execute(ex, { email });
      return rows[0];
    },

    /**
     * An account is made with its personal board (whose id is the account's id), the account
     * being that board's active admin. Call it inside a transaction (or on SQLite's single
     * connection) so neither is written without the other. Every way an account is made says its
     * language and formats (server/i18n/account-language.ts).
     */
    async insert(user: NewUser, ex: Executor = db): Promise<void> {
      await ex.insertInto('users').values(user).execute();
      await ex
        .insertInto('boards')
        .values({ id: user.id, name: PERSONAL_BOARD_NAME, description: '', personal: 1, createdAt: user.createdAt, updatedAt: user.createdAt })
        .execute();
      await ex
        .insertInto('boardMembers')
        .values({
          boardId: user.id,
          email: user.email,
          userId: user.id,
          role: ADMIN_ROLE,
          addedAt: user.createdAt,
          addedByName: user.fullName,
          addedByEmail: user.email,
        })
        .execute();
    },

    async findById(id: string, ex: Executor = db) {
      return ex
        .selectFrom('users')
        .select(['id', 'email', 'fullName', 'passwordHash', 'createdAt', 'adminSince', 'language', 'weekStart', 'hourCycle'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The language and clock of the account with this address, for what is written to it (mails); undefined without one. */
    async readerOf(email: string, ex: Executor = db): Promise<{ language: string; hourCycle: string } | undefined> {
      return ex.selectFrom('users').select(['language', 'hourCycle']).where('email', '=', email).executeTakeFirst();
    },

    /** Sets the account's language and formats (those given), as the settings API does. */
    async updateLanguage(id: string, changes: Pick<Updateable<UsersTable>, 'language' | 'weekStart' | 'hourCycle'> & { updatedAt: string }, ex: Executor = db): Promise<void> {
      await ex.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    async update(id: string, changes: Partial<Pick<UsersTable, 'email' | 'fullName' | 'passwordHash' | 'updatedAt'>>, ex: Executor = db): Promise<void> {
      await ex.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    /** Every account but deleted ones, oldest first (the admin command's list). */
    async listAll(ex: Executor = db) {
      return ex
        .selectFrom('users')
        .select(['id', 'email', 'fullName', 'createdAt'])
        .where('email', 'not like', `%@${DELETED_ACCOUNT_DOMAIN}`)
        .orderBy('createdAt')
        .orderBy('email')
        .execute();
    },

    async countAll(ex: Executor = db): Promise<number> {
      const row = await ex.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async updatePasswordHash(id: string, passwordHash: string, updatedAt: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('users').set({ passwordHash, updatedAt }).where('id', '=', id).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
