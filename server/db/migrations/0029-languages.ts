import type { Kysely } from 'kysely';

/**
 * Each account's language and formats: `users.language` (a tag of shared/languages.ts),
 * `users.week_start` (`monday` | `sunday` | `saturday`) and `users.hour_cycle` (`h12` | `h23`).
 * Accounts made before languages get English and its conventions; a new account gets the best
 * match of its browser's `Accept-Language` and that language's conventions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();
  await db.schema.alterTable('users').addColumn('week_start', 'text', (c) => c.notNull().defaultTo('sunday')).execute();
  await db.schema.alterTable('users').addColumn('hour_cycle', 'text', (c) => c.notNull().defaultTo('h12')).execute();
}
