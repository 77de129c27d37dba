import type { Kysely } from 'kysely';

/**
 * `outbox.texts`: what a mail is made of (JSON), so that the sender writes it in the language
 * its reader's account has when it goes out. Rows written before have none and go as written.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('texts', 'text').execute();
}
