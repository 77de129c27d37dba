import { constants } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createDiskStore } from '../files/disk-store.ts';

const skippable = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOENT: deleted since it was listed (a sweep); EEXIST: copied by an earlier pass.
  return code === 'ENOENT' || code === 'EEXIST';
};

/**
 * Copies every file of the files directory `from` (as the disk store lists them: files in flight
 * under `.incoming/` and resumable uploads under `.uploads/` are not) that `to` does not hold yet; resolves with how many files and bytes
 * it copied. Runs beside a live server: a file deleted meanwhile is skipped, and a second pass
 * copies only what arrived since the first (stored files never change once written).
 */
export async function copyStoredFiles(from: string, to: string): Promise<{ files: number; bytes: number }> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  let files = 0;
  let bytes = 0;
  for await (const { key } of createDiskStore(from).list()) {
    const target = join(to, key);
    try {
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(from, key), target, constants.COPYFILE_EXCL);
      bytes += (await stat(target)).size;
      files += 1;
    } catch (error) {
      if (!skippable(error)) throw error;
    }
  }
  return { files, bytes };
}
