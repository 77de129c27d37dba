import { randomUUID } from 'node:crypto';
import { mkdir, open, opendir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, FileStore, PutOptions, StoredFile } from './file-store.ts';
import { releaseChunk } from './release-chunk.ts';

/** Where a file is written while it arrives: inside the store's directory, so the last step is a rename on one file system. */
const INCOMING = '.incoming';
/**
 * Where resumable (tus) uploads keep their parts until they are whole (files/partial-uploads.ts):
 * beside the files, never one of them, so neither a key nor `list()` reaches it.
 */
export const PARTIAL_UPLOADS_DIR = '.uploads';
/** The top-level folders that hold no files of the store. */
const NOT_FILES = new Set([INCOMING, PARTIAL_UPLOADS_DIR]);

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * How much of a body is gathered before one write to the file. A socket read is at most 64 KiB,
 * and each write is a round trip through libuv's thread pool that delays the main thread too:
 * writing 500 MB in 256 KiB writes costs under half the CPU of 64 KiB ones.
 */
const WRITE_BYTES = 256 * 1024;

/** Writes all of `chunks` where the file is (a short write goes on with the rest). */
async function writeAll(handle: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    const left: Uint8Array[] = [];
    for (const chunk of rest) {
      if (bytesWritten >= chunk.byteLength) bytesWritten -= chunk.byteLength;
      else {
        left.push(chunk.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    rest = left;
  }
}

/**
 * Writes `body` to a new file at `path` in blocks of about WRITE_BYTES, one block on its way to
 * the disk while the next gathers (the body is not read further until the block before is
 * written: backpressure up to the socket), then syncs it; resolves with the bytes written. With
 * `handOver`, each chunk's memory is freed once it is on disk.
 */
async function writeBody(path: string, body: Readable, handOver: boolean): Promise<number> {
  const handle = await open(path, 'wx');
  let size = 0;
  let block: Uint8Array[] = [];
  let blockBytes = 0;
  let writing: Promise<void> | undefined;
  const write = async (chunks: Uint8Array[]) => {
    await writeAll(handle, chunks);
    if (handOver) for (const chunk of chunks) releaseChunk(chunk);
  };
  try {
    for await (const data of body) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Uint8Array);
      block.push(chunk);
      blockBytes += chunk.byteLength;
      size += chunk.byteLength;
      if (blockBytes < WRITE_BYTES) continue;
      await writing;
      writing = write(block);
      // A failed write is thrown by the next `await writing`; until then it is no unhandled rejection.
      writing.catch(() => undefined);
      block = [];
      blockBytes = 0;
    }
    await writing;
    if (block.length > 0) await write(block);
    // The bytes are on disk before the rename, so a row committed after `put` never points at a file a crash emptied.
    await handle.sync();
  } finally {
    // Never close the file under a write still under way.
    await writing?.catch(() => undefined);
    await handle.close();
  }
  return size;
}

/**
 * Keys are the app's own, never a user's; still, none may leave the directory or name the
 * directories of files in flight.
 */
function checkKey(key: string): void {
  if (key === '' || key.startsWith('/') || key.includes('\\') || key.split('/').some((part) => part === '..' || part === '') || NOT_FILES.has(key.split('/')[0] ?? '')) {
    throw new Error(`Refused file key ${JSON.stringify(key)}: keys are relative paths without "..", "\\" or empty parts.`);
  }
}

/**
 * Files under `dir`, one file a key (`attachments/<id>` is `dir/attachments/<id>`). A file is
 * written under `.incoming/` and renamed into place once whole, so a key holds a whole file or
 * nothing, whatever happens to the upload or the process. `.uploads/` holds resumable uploads in
 * progress; `list()` skips both.
 */
export function createDiskStore(dir: string): FileStore {
  const pathOf = (key: string) => {
    checkKey(key);
    return join(dir, key);
  };

  async function* walk(folder: string, prefix: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
    let entries;
    try {
      entries = await opendir(folder);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for await (const entry of entries) {
      const key = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!NOT_FILES.has(key)) yield* walk(join(folder, entry.name), key);
      } else if (entry.isFile()) {
        let info;
        try {
          info = await stat(join(folder, entry.name));
        } catch (error) {
          if (isMissing(error)) continue; // deleted since the directory was read
          throw error;
        }
        yield { key, modifiedAt: info.mtime };
      }
    }
  }

  return {
    kind: 'disk',

    async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
      const target = pathOf(key);
      const incoming = join(dir, INCOMING);
      await mkdir(incoming, { recursive: true, mode: 0o700 });
      const partial = join(incoming, randomUUID());
      try {
        const size = await writeBody(partial, body, options.handOver === true);
        await mkdir(dirname(target), { recursive: true });
        await rename(partial, target);
        return { size };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async read(key: string, range?: ByteRange): Promise<StoredFile | undefined> {
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      try {
        // Size and bytes from one open file: a rename over the key meanwhile cannot mix two files.
        const info = await handle.stat();
        if (!info.isFile()) {
          await handle.close();
          return undefined;
        }
        const body = handle.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
        return { size: info.size, body };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },

    localPath: pathOf,

    list: () => walk(dir, ''),

    signedUrl: () => Promise.resolve(undefined),

    close: () => Promise.resolve(),
  };
}
