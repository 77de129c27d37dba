import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { createFileSweepsRepository, type KnownKey } from '../repositories/file-sweeps-repository.ts';
import type { FileStore } from './file-store.ts';

/**
 * Deleting the files nothing points at any more, and checking that rows and files agree. Both
 * the server (a periodic sweep) and `npm run admin -- files:check` use these.
 */

/** How long a claimed key stays with the instance deleting its file before another may take it. */
export const SWEEP_LEASE_MS = 5 * 60 * 1000;

/**
 * Deletes from `store` the files of up to `limit` `file_sweeps` rows due at `nowIso`, then
 * their rows; resolves with how many were swept. Safe with several instances at once: each
 * key is claimed by one (a lease, see file-sweeps-repository.ts). A file already gone counts as
 * swept. A key whose delete fails keeps its row and comes due again when the lease ends; the
 * other keys are still swept, and the first failure is thrown afterwards.
 */
export async function sweepDueFiles(db: Kysely<DB>, store: FileStore, nowIso: string, limit = 100): Promise<number> {
  const sweeps = createFileSweepsRepository(db);
  const leaseUntil = new Date(Date.parse(nowIso) + SWEEP_LEASE_MS).toISOString();
  const keys = await sweeps.claimDue(nowIso, leaseUntil, limit);
  const failures: unknown[] = [];
  let swept = 0;
  for (const key of keys) {
    try {
      // The file first: a crash between the two leaves a row that comes due again, never a file nothing names.
      await store.delete(key);
      await sweeps.finish(key, leaseUntil);
      swept += 1;
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return swept;
}

export interface FilesCheck {
  /** Keys attachment rows point at whose file is not in the store (sorted). */
  rowsWithoutFile: string[];
  /** Keys in the store no row points at and no sweep will delete (sorted). */
  filesWithoutRow: string[];
}

function split(known: KnownKey[]): { rows: Set<string>; pending: Set<string> } {
  const rows = new Set<string>();
  const pending = new Set<string>();
  for (const { key, kind } of known) (kind === 'row' ? rows : pending).add(key);
  return { rows, pending };
}

/**
 * Compares the keys of `attachments` (file and thumbnail) with the files in `store`. A key with
 * a `file_sweeps` row (an upload in flight, or a deletion not yet swept) counts as neither.
 * The keys are read before and after the listing, so uploads and deletions meanwhile are no
 * findings: a row counts as without file only when it existed before the listing began (its
 * file stored before) and still exists after; a file counts as without row only when no row or
 * sweep named it at either read.
 */
export async function checkFiles(db: Kysely<DB>, store: FileStore): Promise<FilesCheck> {
  const sweeps = createFileSweepsRepository(db);
  const before = split(await sweeps.knownKeys());
  const listed = new Set<string>();
  for await (const { key } of store.list()) listed.add(key);
  const after = split(await sweeps.knownKeys());

  const pending = (key: string) => before.pending.has(key) || after.pending.has(key);
  const rowsWithoutFile = [...before.rows].filter((key) => after.rows.has(key) && !listed.has(key) && !pending(key));
  const filesWithoutRow = [...listed].filter((key) => !before.rows.has(key) && !after.rows.has(key) && !pending(key));
  return { rowsWithoutFile: rowsWithoutFile.sort(), filesWithoutRow: filesWithoutRow.sort() };
}
