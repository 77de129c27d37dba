import { sql, type ExpressionBuilder, type Kysely, type SqlBool, type Expression } from 'kysely';
import { NO_PASSWORD_HASH } from '../services/passwords.ts';
import { ADMIN_POLICY, type AdminAction, type SignInMethod } from '#shared/admin.ts';
import type { AdminAccount, AuditEntry } from '#shared/schemas/admin.ts';
import type { Dialect } from '../db/connect.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB, UsersTable } from '../db/schema.ts';
import { DELETED_ACCOUNT_DOMAIN } from './users-repository.ts';

type UsersScope = ExpressionBuilder<DB & { u: UsersTable }, 'u'>;

/**
 * One probe per way in (shared/admin.ts SIGN_IN_METHODS): whether the account `u` can sign in so.
 * A new way in adds its probe here, e.g. `passkey: (eb) => eb.exists(eb.selectFrom('passkeys')…)`.
 */
export const SIGN_IN_METHOD_PROBES: Record<SignInMethod, (eb: UsersScope) => Expression<SqlBool>> = {
  password: (eb) => eb('u.passwordHash', '<>', NO_PASSWORD_HASH),
  'single-sign-on': (eb) => eb.exists(eb.selectFrom('userIdentities as i').select('i.userId').whereRef('i.userId', '=', 'u.id')),
  passkey: (eb) => eb.exists(eb.selectFrom('passkeys as k').select('k.userId').whereRef('k.userId', '=', 'u.id')),
  'two-step': (eb) =>
    eb.exists(eb.selectFrom('totpFactors as f').select('f.userId').whereRef('f.userId', '=', 'u.id').where('f.confirmedAt', 'is not', null)),
};
const METHODS = Object.keys(SIGN_IN_METHOD_PROBES) as SignInMethod[];

/** The later of two ISO instants, either possibly missing. */
const later = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a > b ? a : b);

/** Instance invitations as sign-up reads them (server/services/registration.ts). */
export const instanceInvitations = {
  async isInvited(ex: Executor, email: string): Promise<boolean> {
    return (await ex.selectFrom('instanceInvitations').select('email').where('email', '=', email).executeTakeFirst()) !== undefined;
  },

  /** The address registered: its invitation is used up. */
  async drop(ex: Executor, email: string): Promise<void> {
    await ex.deleteFrom('instanceInvitations').where('email', '=', email).execute();
  },
};

export interface NewAdminAction {
  actorId: string | null;
  actorEmail: string;
  action: AdminAction;
  subjectEmail: string | null;
  detail?: string;
}

/**
 * What instance admins read and change: accounts with their figures, deactivation, promotion,
 * instance invitations and the audit log.
 */
export function createAdminRepository(db: Kysely<DB>, dialect: Dialect) {
  /** Part of the address or the name, in any case (SQLite's lower() folds ASCII only). */
  const matches = (eb: UsersScope, q: string) => {
    const has = (column: string) =>
      dialect === 'postgres' ? sql<SqlBool>`strpos(lower(${sql.ref(column)}), lower(${q})) > 0` : sql<SqlBool>`instr(lower(${sql.ref(column)}), lower(${q})) > 0`;
    return eb.or([has('u.email'), has('u.full_name')]);
  };

  return {
    /** A page of accounts but deleted ones (oldest first, then by address), those matching `q` when given (only `id`, when given), with the total. */
    async listAccounts(
      { q, page, adminEmails, id }: { q: string; page: number; adminEmails: readonly string[]; id?: string },
      ex: Executor = db,
    ): Promise<{ accounts: AdminAccount[]; total: number }> {
      const filtered = ex
        .selectFrom('users as u')
        .where('u.email', 'not like', `%@${DELETED_ACCOUNT_DOMAIN}`)
        .$if(q !== '', (qb) => qb.where((eb) => matches(eb, q)))
        .$if(id !== undefined, (qb) => qb.where('u.id', '=', id ?? ''));
      const totalRow = await filtered.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      const rows = await filtered
        .select((eb) => [
          'u.id',
          'u.email',
          'u.fullName',
          'u.createdAt',
          'u.adminSince',
          'u.deactivatedAt',
          'u.lastSignInAt',
          eb.selectFrom('sessions as s').select((s) => s.fn.max('s.lastSeenAt').as('m')).whereRef('s.userId', '=', 'u.id').as('sessionSeen'),
          eb.selectFrom('apiTokens as t').select((s) => s.fn.max('t.lastUsedAt').as('m')).whereRef('t.userId', '=', 'u.id').as('tokenSeen'),
          eb.selectFrom('boardMembers as m').select((s) => s.fn.countAll<number | string>().as('n')).whereRef('m.userId', '=', 'u.id').as('boards'),
          eb
            .selectFrom('attachments as a')
            .select((s) => s.fn.coalesce(s.fn.sum<number | string>('a.size'), sql<number>`0`).as('n'))
            .whereRef('a.uploaderId', '=', 'u.id')
            .as('storageBytes'),
          // Aliased by position: the result's keys go through the camel-case plugin.
          ...METHODS.map((method, i) => eb.case().when(SIGN_IN_METHOD_PROBES[method](eb)).then(1).else(0).end().as(`method${i}`)),
        ])
        .orderBy('u.createdAt')
        .orderBy('u.email')
        .limit(ADMIN_POLICY.pageSize)
        .offset((page - 1) * ADMIN_POLICY.pageSize)
        .execute();
      const accounts = rows.map((row): AdminAccount => {
        const flags = row as unknown as Record<string, number | string>;
        return {
          id: row.id,
          email: row.email,
          fullName: row.fullName,
          createdAt: row.createdAt,
          lastSeenAt: later(later(row.lastSignInAt, row.sessionSeen ?? null), row.tokenSeen ?? null),
          boards: Number(row.boards ?? 0),
          storageBytes: Number(row.storageBytes ?? 0),
          signInMethods: METHODS.filter((_method, i) => Number(flags[`method${i}`]) === 1),
          isAdmin: row.adminSince !== null || adminEmails.includes(row.email),
          deactivatedAt: row.deactivatedAt,
        };
      });
      return { accounts, total: Number(totalRow.n) };
    },

    async findAccount(id: string, ex: Executor = db) {
      return ex.selectFrom('users').select(['id', 'email', 'adminSince', 'deactivatedAt']).where('id', '=', id).executeTakeFirst();
    },

    /** Whether the account was promoted (users:promote); ADMIN_EMAILS is the caller's to add. */
    async isPromoted(userId: string, ex: Executor = db): Promise<boolean> {
      const row = await ex.selectFrom('users').select('adminSince').where('id', '=', userId).executeTakeFirst();
      return row?.adminSince != null;
    },

    /** Sets or clears the promoted flag; false when it already was so. */
    async setPromoted(userId: string, at: string | null, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set({ adminSince: at })
        .where('id', '=', userId)
        .where('adminSince', at === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Deactivates (`at`) or reactivates (null); false when it already was so. */
    async setDeactivated(userId: string, at: string | null, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set({ deactivatedAt: at })
        .where('id', '=', userId)
        .where('deactivatedAt', at === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records an invitation (again: its time and inviter are renewed). */
    async invite(email: string, invitedByEmail: string, createdAt: string, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('instanceInvitations')
        .values({ email, invitedByEmail, createdAt })
        .onConflict((oc) => oc.column('email').doUpdateSet({ invitedByEmail, createdAt }))
        .execute();
    },

    async record(entry: NewAdminAction, at: string, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('adminActions')
        .values({ id: newId(), at, actorId: entry.actorId, actorEmail: entry.actorEmail, action: entry.action, subjectEmail: entry.subjectEmail, detail: entry.detail ?? '' })
        .execute();
    },

    /** A page of the audit log, newest first, with the total. */
    async listActions(page: number, ex: Executor = db): Promise<{ entries: AuditEntry[]; total: number }> {
      const totalRow = await ex.selectFrom('adminActions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      const rows = await ex
        .selectFrom('adminActions')
        .select(['id', 'at', 'actorEmail', 'action', 'subjectEmail', 'detail'])
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(ADMIN_POLICY.pageSize)
        .offset((page - 1) * ADMIN_POLICY.pageSize)
        .execute();
      return { entries: rows.map((row) => ({ ...row, action: row.action as AdminAction })), total: Number(totalRow.n) };
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
