import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of a file, both included (an HTTP Range, already checked against the size). */
export interface ByteRange {
  start: number;
  end: number;
}

/** How `put` stores a body. */
export interface PutOptions {
  /** The file's media type (the S3 store keeps it with the object). */
  contentType?: string;
  /**
   * The body's chunks are handed over: nothing reads them once `put` has them. The disk store
   * then frees each chunk's memory as soon as it is on disk (files/release-chunk.ts) instead of
   * leaving it to V8's next full collection; the S3 store, which copies chunks into its parts,
   * ignores it. For bytes as they arrive from a client, never for a Buffer the caller keeps.
   */
  handOver?: boolean;
}

/** What a stored file answers with: its size and, from `read`, its bytes. */
export interface StoredFile {
  size: number;
  body: Readable;
}

/**
 * Where attachment files live: a directory on local disk (disk-store.ts) or an S3-compatible
 * bucket (s3-store.ts), chosen by configuration (`createFileStore`). Keys are the app's own
 * (`attachments/<id>`, `thumbnails/<id>.webp`): never a user's file name.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /**
   * Streams `body` to `key` without holding the file in memory, and resolves with the bytes
   * written. When `body` errors (a cut-off upload, a size limit), the promise rejects with that
   * error and nothing is left at `key`.
   */
  put(key: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /** The file at `key` (or the range of it); undefined when there is none. */
  read(key: string, range?: ByteRange): Promise<StoredFile | undefined>;
  /**
   * Where the file at `key` is on this machine's disk, for a reader that opens files itself (the
   * thumbnail's image decoder); undefined for a store that keeps no local files (S3).
   */
  localPath(key: string): string | undefined;
  /** Deletes the file at `key`; a missing file is no error. */
  delete(key: string): Promise<void>;
  /** Every key in the store with when it was last written, in no particular order (`admin files:check`); resumable uploads in progress are no keys. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /**
   * S3 only: a presigned GET of `key` valid for `seconds` (at most 300) whose answer carries
   * these headers; undefined for a store that cannot (disk), which then serves the bytes itself.
   */
  signedUrl(key: string, headers: { contentType: string; contentDisposition: string }, seconds: number): Promise<string | undefined>;
  /** Releases connections (the app's close). */
  close(): Promise<void>;
}
