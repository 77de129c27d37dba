import { sql, type Kysely } from 'kysely';
import { prepare, slot, type Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** The person a feed secret belongs to, as the feed reads their tasks. */
export interface FeedOwner {
  userId: string;
  email: string;
  /** When this secret was made (a rotation makes a new one). */
  createdAt: string;
  /** The owner's language: the feed's labels are written in it. */
  language: string;
}

/**
 * A person's secret calendar URL (`calendar_feeds`: one row per user, the secret unique). Making
 * and rotating are single upserts on the user's primary key, so two first calls (or two
 * rotations) at once leave exactly one row, and a rotation replaces the secret in the statement
 * that writes the new one: the old one finds nothing from then on.
 */
export function createCalendarRepository(db: Kysely<DB>) {
  const ownerOf = prepare<{ secret: string }, FeedOwner>(
    db
      .selectFrom('calendarFeeds as f')
      .innerJoin('users as u', 'u.id', 'f.userId')
      .select(['f.userId', 'u.email', 'f.createdAt', 'u.language'])
      .where('f.secret', '=', slot('secret')),
  );

  return {
    /** The user's secret, made from `fresh` when they have none yet (the first call wins a race; both read its secret). */
    async secretOf(userId: string, fresh: string, at: string, ex: Executor = db): Promise<string> {
      await ex
        .insertInto('calendarFeeds')
        .values({ userId, secret: fresh, createdAt: at })
        .onConflict((oc) => oc.column('userId').doNothing())
        .execute();
      const row = await ex.selectFrom('calendarFeeds').select('secret').where('userId', '=', userId).executeTakeFirstOrThrow();
      return row.secret;
    },

    /** Replaces the user's secret with `fresh` (made when they had none). */
    async rotate(userId: string, fresh: string, at: string, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('calendarFeeds')
        .values({ userId, secret: fresh, createdAt: at })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ secret: sql.ref('excluded.secret'), createdAt: sql.ref('excluded.createdAt') }))
        .execute();
    },

    /** The names of the boards `ids`, by id. */
    async boardNames(ids: readonly string[], ex: Executor = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await ex.selectFrom('boards').select(['id', 'name']).where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [row.id, row.name]));
    },

    /** Whose feed `secret` is, with their current e-mail; undefined for an unknown (or rotated) secret. */
    async ownerOf(secret: string, ex: Executor = db): Promise<FeedOwner | undefined> {
      return (await ownerOf.execute(ex, { secret })).rows[0];
    },
  };
}

export type CalendarRepository = ReturnType<typeof createCalendarRepository>;
