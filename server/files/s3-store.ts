import { DeleteObjectCommand, GetObjectCommand, paginateListObjectsV2, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FilesConfig } from '../config.ts';
import type { ByteRange, FileStore, PutOptions, StoredFile } from './file-store.ts';

/** Part size and parts in flight of a multipart upload: at most about three parts of an upload are in memory. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** The longest a presigned URL lives, whatever the caller asks. */
const MAX_SIGNED_SECONDS = 300;

/** `bytes 0-9/100` → 100; undefined when the total is unknown (`*`) or the header absent. */
function totalOf(contentRange: string | undefined): number | undefined {
  const total = contentRange === undefined ? undefined : /\/(\d+)\s*$/.exec(contentRange)?.[1];
  return total === undefined ? undefined : Number(total);
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Objects under this prefix are resumable (tus) uploads in progress (files/partial-uploads.ts),
 * not files: `list()` skips them.
 */
export const PARTIAL_UPLOADS_PREFIX = 'uploads/';

/** How to reach the bucket of S3_URL: the same for the file store and the partial uploads. */
export function s3ClientOptions(config: Extract<FilesConfig, { kind: 's3' }>): S3ClientConfig {
  return {
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The SDK's default since 2025 sends aws-chunked bodies with CRC checksums, which many
    // S3-compatible stores neither decode nor return: checksums only where the API demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/**
 * Files in an S3-compatible bucket (AWS, MinIO, Garage, s3rver), one object a key. Uploads go
 * through lib-storage's `Upload`: one PUT for a small file, a multipart upload for a large one,
 * with a bounded number of parts in memory.
 */
export function createS3Store(config: Extract<FilesConfig, { kind: 's3' }>): FileStore {
  const client = new S3Client(s3ClientOptions(config));
  const Bucket = config.bucket;

  return {
    kind: 's3',

    async put(key: string, body: Readable, { contentType }: PutOptions = {}): Promise<{ size: number }> {
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counter, ...(contentType === undefined ? {} : { ContentType: contentType }) },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // On any error `done()` aborts a multipart upload itself, so no parts are left behind.
        leavePartsOnError: false,
      });
      // The upload failing (the store unreachable) must stop the reading too, else the body waits forever.
      const uploaded = upload.done().catch((error: unknown) => {
        counter.destroy(error as Error);
        throw error;
      });
      const [piped, stored] = await Promise.allSettled([pipeline(body, counter), uploaded]);
      // A body's error (a cut-off upload, a size limit) is what the caller gets, as it was thrown.
      if (piped.status === 'rejected') throw piped.reason;
      if (stored.status === 'rejected') throw stored.reason;
      return { size };
    },

    async read(key: string, range?: ByteRange): Promise<StoredFile | undefined> {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }) }));
        const size = (range === undefined ? answer.ContentLength : totalOf(answer.ContentRange)) ?? answer.ContentLength ?? 0;
        return { size, body: answer.Body as Readable };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      // S3 answers a delete of a missing key with success.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list() {
      for await (const page of paginateListObjectsV2({ client }, { Bucket })) {
        for (const object of page.Contents ?? []) {
          if (object.Key !== undefined && !object.Key.startsWith(PARTIAL_UPLOADS_PREFIX)) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date(0) };
        }
      }
    },

    localPath: () => undefined,

    signedUrl(key: string, headers: { contentType: string; contentDisposition: string }, seconds: number): Promise<string> {
      const command = new GetObjectCommand({ Bucket, Key: key, ResponseContentType: headers.contentType, ResponseContentDisposition: headers.contentDisposition });
      return getSignedUrl(client, command, { expiresIn: Math.min(seconds, MAX_SIGNED_SECONDS) });
    },

    close(): Promise<void> {
      client.destroy();
      return Promise.resolve();
    },
  };
}
