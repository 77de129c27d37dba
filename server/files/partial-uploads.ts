import { paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import { FileConfigstore, FileStore as TusFileStore } from '@tus/file-store';
import { DataStore, ERRORS, Upload, type Locker } from '@tus/server';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DAY } from '../clock.ts';
import type { DatabaseConfig, FilesConfig } from '../config.ts';
import { PARTIAL_UPLOADS_DIR } from './disk-store.ts';
import type { FileStore } from './file-store.ts';
import { createS3Store, PARTIAL_UPLOADS_PREFIX, s3ClientOptions } from './s3-store.ts';
import { createUploadLocker } from './upload-locker.ts';
import { paced } from './upload-pacing.ts';

/** How long a resumable upload may stay unfinished: after this the hourly cleanup removes it. */
export const PARTIAL_UPLOAD_LIFETIME_MS = DAY;

/**
 * Where resumable (tus) uploads keep their bytes until they are whole: beside the files (the
 * disk store's `.uploads/`, the bucket's `uploads/` prefix), so every instance sees every
 * upload, and never among them (`FileStore.list()` skips both). A finished upload is read once
 * into the attachment's own file and then removed.
 */
export interface PartialUploads {
  /** The store @tus/server writes to. */
  readonly store: DataStore;
  /** Who may write an upload now: one request at a time, across instances on PostgreSQL (upload-locker.ts). */
  readonly locker: Locker;
  /** The ids of the uploads kept now, finished or not. */
  ids(): AsyncIterable<string>;
  /** The bytes of a finished upload. */
  read(id: string): Promise<Readable>;
  /** Removes an upload, finished or not; a missing one is no error. */
  remove(id: string): Promise<void>;
  /**
   * Removes the uploads created before `now` minus PARTIAL_UPLOAD_LIFETIME_MS (their
   * `createdAt` metadata, written by the server from the app's clock), each under its lock, so
   * that several instances may run it at once; resolves with how many it removed.
   */
  expire(now: Date): Promise<number>;
  close(): Promise<void>;
}

const isGone = (error: unknown) => error === ERRORS.FILE_NOT_FOUND || error === ERRORS.FILE_NO_LONGER_EXISTS;

/** Chunk keys carry their start offset zero-padded, so that listing order is byte order. */
const OFFSET_DIGITS = 15;

async function textOf(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A tus store on S3 built from plain objects: `<prefix><id>.info` holds the upload (size,
 * metadata, creation), and each write is one object `<prefix><id>/<start offset>`, streamed by
 * the file store's `put` (8 MiB multipart parts for a large one). The offset is where the
 * chunks stop following each other; the finished file is the chunks read in order. It needs
 * only PUT, GET, LIST and DELETE of objects, which every S3-compatible store (and s3rver) has:
 * @tus/s3-store also needs ListParts, AbortMultipartUpload and ListMultipartUploads, which
 * s3rver and some stores lack (docs/decisions/151-resumable-uploads-on-s3-as-chunk-objects.md).
 * A write cut off half-way keeps the bytes that arrived, as tus expects.
 */
class S3ChunkStore extends DataStore {
  readonly #files: FileStore;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(config: Extract<FilesConfig, { kind: 's3' }>, prefix: string) {
    super();
    this.#files = createS3Store(config);
    this.#client = new S3Client(s3ClientOptions(config));
    this.#bucket = config.bucket;
    this.#prefix = prefix;
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination'];
  }

  #infoKey = (id: string) => `${this.#prefix}${id}.info`;

  async #info(id: string): Promise<Upload> {
    const stored = await this.#files.read(this.#infoKey(id));
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server answers its own errors with their status and body
    if (stored === undefined) throw ERRORS.FILE_NOT_FOUND;
    return new Upload(JSON.parse(await textOf(stored.body)) as Upload);
  }

  async #saveInfo(upload: Upload): Promise<void> {
    const { id, size, metadata, creation_date } = upload;
    await this.#files.put(this.#infoKey(id), Readable.from([Buffer.from(JSON.stringify({ id, size, metadata, creation_date, offset: 0 }))]), { contentType: 'application/json' });
  }

  /** The upload's chunks in byte order. */
  async #chunks(id: string): Promise<{ key: string; start: number; size: number }[]> {
    const chunks: { key: string; start: number; size: number }[] = [];
    const folder = `${this.#prefix}${id}/`;
    for await (const page of paginateListObjectsV2({ client: this.#client }, { Bucket: this.#bucket, Prefix: folder })) {
      for (const { Key: key, Size: size } of page.Contents ?? []) {
        if (key !== undefined) chunks.push({ key, start: Number(key.slice(folder.length)), size: size ?? 0 });
      }
    }
    return chunks.sort((a, b) => a.start - b.start);
  }

  override async create(upload: Upload): Promise<Upload> {
    upload.creation_date = new Date().toISOString();
    await this.#saveInfo(upload);
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const key = `${this.#prefix}${id}/${String(offset).padStart(OFFSET_DIGITS, '0')}`;
    const { size } = await this.#files.put(key, paced(stream));
    if (size === 0) await this.#files.delete(key);
    return offset + size;
  }

  override async getUpload(id: string): Promise<Upload> {
    const upload = await this.#info(id);
    let offset = 0;
    for (const chunk of await this.#chunks(id)) if (chunk.start === offset) offset += chunk.size;
    upload.offset = offset;
    return upload;
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const upload = await this.#info(id);
    upload.size = length;
    await this.#saveInfo(upload);
  }

  override async remove(id: string): Promise<void> {
    await this.#info(id);
    for (const { key } of await this.#chunks(id)) await this.#files.delete(key);
    await this.#files.delete(this.#infoKey(id));
  }

  /** The finished file: the chunks one after the other. */
  read(id: string): Readable {
    const chunks = () => this.#chunks(id);
    const files = this.#files;
    return Readable.from(
      (async function* () {
        for (const { key } of await chunks()) {
          const stored = await files.read(key);
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server answers its own errors with their status and body
          if (stored === undefined) throw ERRORS.FILE_NO_LONGER_EXISTS;
          yield* stored.body;
        }
      })(),
    );
  }

  /** The ids of the uploads in the bucket, read from their `.info` objects. */
  async *ids(): AsyncGenerator<string> {
    for await (const page of paginateListObjectsV2({ client: this.#client }, { Bucket: this.#bucket, Prefix: this.#prefix })) {
      for (const { Key: key } of page.Contents ?? []) {
        if (key?.endsWith('.info') === true) yield key.slice(this.#prefix.length, -'.info'.length);
      }
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
    await this.#files.close();
  }
}

/** @tus/file-store's FileStore, with the bytes of each write taking turns with other requests (upload-pacing.ts). */
class PacedTusFileStore extends TusFileStore {
  override write(stream: Readable, id: string, offset: number): Promise<number> {
    return super.write(paced(stream), id, offset);
  }
}

/**
 * The partial uploads of the configured storage: @tus/file-store's FileStore on disk, the
 * chunk store above on S3. Neither expires uploads itself (@tus/file-store's expiry reads the
 * wall clock): `expire` does, by the app's clock.
 */
export function createPartialUploads(files: FilesConfig, database: DatabaseConfig): PartialUploads {
  const { locker, close: closeLocker } = createUploadLocker(database);
  let store: DataStore;
  let ids: () => AsyncIterable<string>;
  let read: (id: string) => Promise<Readable>;
  let closeStore: () => Promise<void>;
  if (files.kind === 'disk') {
    const directory = join(files.dir, PARTIAL_UPLOADS_DIR);
    // Each upload's `<id>.json` beside its bytes (the FileStore's default, given here to be listed).
    const configstore = new FileConfigstore(directory);
    const disk = new PacedTusFileStore({ directory, configstore });
    store = disk;
    ids = async function* () {
      yield* await configstore.list();
    };
    // Opened before it is returned (FileStore.read opens lazily): a stream closed unread never fails on a file removed since.
    read = async (id) => (await open(join(directory, id), 'r')).createReadStream();
    closeStore = () => Promise.resolve();
  } else {
    const s3 = new S3ChunkStore(files, PARTIAL_UPLOADS_PREFIX);
    store = s3;
    ids = () => s3.ids();
    read = (id) => Promise.resolve(s3.read(id));
    closeStore = () => s3.close();
  }

  const remove = async (id: string) => {
    try {
      await store.remove(id);
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  };

  return {
    store,
    locker,
    ids,
    read,
    remove,

    async expire(now) {
      const cutOff = now.getTime() - PARTIAL_UPLOAD_LIFETIME_MS;
      let removed = 0;
      for await (const id of ids()) {
        let upload: Upload;
        try {
          upload = await store.getUpload(id);
        } catch (error) {
          if (isGone(error)) continue;
          throw error;
        }
        if (Date.parse(upload.metadata?.createdAt ?? upload.creation_date ?? '') >= cutOff) continue;
        // Only an expired upload is locked: in this process, asking for a lock stops the request holding it.
        const lock = locker.newLock(id);
        try {
          await lock.lock(AbortSignal.timeout(1000), () => undefined);
        } catch {
          continue; // still being written or finished: the next round
        }
        try {
          await remove(id);
          removed += 1;
        } finally {
          await lock.unlock();
        }
      }
      return removed;
    },

    async close() {
      await closeStore();
      await closeLocker();
    },
  };
}
