import { CompiledQuery, type Kysely } from 'kysely';
import { withoutPlugins } from './prepared.ts';
import type { DB } from './schema.ts';

const SELECT_ONE = CompiledQuery.raw('select 1');

/** Resolves when the database answers `select 1`; rejects on error or after `timeoutMs`. */
export async function ping(db: Kysely<DB>, timeoutMs: number): Promise<void> {
  // CamelCasePlugin has nothing to rename in `select 1`.
  const plain = withoutPlugins(db);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`No answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([plain.executeQuery(SELECT_ONE), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
