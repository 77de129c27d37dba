import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The file and the WAL mode companions SQLite keeps next to it. */
export const sqliteFiles = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/**
 * PIDs of other processes that have the database (or its -wal/-shm) open, read from /proc
 * (Linux). A running server keeps all three open; an empty list elsewhere means "unknown".
 */
export function processesUsing(file: string): number[] {
  if (!existsSync('/proc/self/fd')) return [];
  const targets = new Set(sqliteFiles(file));
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(join('/proc', entry, 'fd'));
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(join('/proc', entry, 'fd', fd));
      } catch {
        continue;
      }
      if (targets.has(link)) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}
