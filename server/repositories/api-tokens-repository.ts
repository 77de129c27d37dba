import type { InferResult, Kysely } from 'kysely';
import { prepare, slot, type Executor, type ValuesOf } from '../db/prepared.ts';
import type { ApiTokensTable, DB } from '../db/schema.ts';
import type { Dialect } from '../db/connect.ts';

export interface TokenWithUser {
  id: string;
  access: 'read' | 'write';
  expiresAt: string | null;
  lastUsedAt: string | null;
  userId: string;
  email: string;
  fullName: string;
  /** The account's language tag (`users.language`). */
  language: string;
}

/** A token as its owner sees it (never its hash). */
export type TokenRow = Omit<ApiTokensTable, 'secretHash' | 'userId'>;

/**
 * Personal API tokens. A Bearer call finds its token by the SHA-256 of the secret (unique
 * index), joined to its user: one indexed read, like the session check.
 */
export function createApiTokensRepository(db: Kysely<DB>, dialect: Dialect) {
  const bySecretSelect = ['t.id', 't.access', 't.expiresAt', 't.lastUsedAt', 't.userId', 'u.email', 'u.fullName', 'u.language'] as const;
  const bySecretQuery = db
    .selectFrom('apiTokens as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .select(bySecretSelect)
    .where('t.secretHash', '=', slot('secretHash'))
    // A deactivated account's tokens are kept but refused (they work again on reactivation).
    .where('u.deactivatedAt', 'is', null);
  const bySecret = prepare<{ secretHash: string }, ValuesOf<InferResult<typeof bySecretQuery>[number], typeof bySecretSelect>>(bySecretQuery, {
    rowsAsArrays: true,
  });
  // Conditional, so concurrent calls (on any instance) write the row at most once a minute.
  const touch = prepare<{ id: string; now: string; before: string }, never>(
    db
      .updateTable('apiTokens')
      .set({ lastUsedAt: slot('now') })
      .where('id', '=', slot('id'))
      .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<=', slot('before'))])),
  );
  const columns = ['id', 'name', 'access', 'createdAt', 'expiresAt', 'lastUsedAt'] as const;

  return {
    async findBySecretHash(secretHash: string, ex: Executor = db): Promise<TokenWithUser | undefined> {
      const { rows } = await bySecret.execute(ex, { secretHash });
      const row = rows[0];
      if (row === undefined) return undefined;
      const [id, access, expiresAt, lastUsedAt, userId, email, fullName, language] = row;
      return { id, access, expiresAt, lastUsedAt, userId, email, fullName, language };
    },

    /** Sets `last_used_at` to `now` unless it is already later than `before`. */
    async touch(id: string, now: string, before: string, ex: Executor = db): Promise<void> {
      await touch.execute(ex, { id, now, before });
    },

    /** The user's tokens, newest first. */
    async listFor(userId: string, ex: Executor = db): Promise<TokenRow[]> {
      return ex.selectFrom('apiTokens').select(columns).where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
    },

    /**
     * Adds a token unless the user has `limit` already ('full'), or is gone (undefined). The
     * user's row is locked first (PostgreSQL; SQLite runs one write transaction at a time), so
     * two creations on any instances cannot both pass the count.
     */
    async create(row: ApiTokensTable, limit: number, trx: Executor): Promise<'added' | 'full' | undefined> {
      let owner = trx.selectFrom('users').select('id').where('id', '=', row.userId);
      if (dialect === 'postgres') owner = owner.forUpdate();
      if ((await owner.executeTakeFirst()) === undefined) return undefined;
      const { count } = await trx
        .selectFrom('apiTokens')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
        .where('userId', '=', row.userId)
        .executeTakeFirstOrThrow();
      if (count >= limit) return 'full';
      await trx.insertInto('apiTokens').values(row).execute();
      return 'added';
    },

    /** Deletes the user's token `id` (someone else's stays); its secret hash when one went. */
    async deleteOwn(userId: string, id: string, ex: Executor = db): Promise<string | undefined> {
      const row = await ex.deleteFrom('apiTokens').where('id', '=', id).where('userId', '=', userId).returning('secretHash').executeTakeFirst();
      return row?.secretHash;
    },

    /** Every token of the user (signed out everywhere, new password, account deleted). */
    async deleteAllOf(userId: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('apiTokens').where('userId', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
