import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { createDiskStore, PARTIAL_UPLOADS_DIR } from '../files/disk-store.ts';
import { PARTIAL_UPLOADS_PREFIX } from '../files/s3-store.ts';
import type { FileStore } from '../files/file-store.ts';
import { createFileStore } from '../files/create-file-store.ts';
import { isPostgres } from './helpers.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';

/**
 * The FileStore contract, once for each store: the disk store in a temporary directory and the
 * S3 store against a real S3-compatible server (s3rver). No database is involved, so the suite
 * runs in the SQLite project only.
 */
async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key, modifiedAt } of store.list()) {
    expect(modifiedAt).toBeInstanceOf(Date);
    keys.push(key);
  }
  return keys.sort();
}

/** A body that sends `bytes`, then fails with `error` (a cut-off upload, a size limit). */
function failingBody(bytes: Buffer, error: Error): Readable {
  return Readable.from(
    (async function* () {
      // In pieces, as a request arrives, so a multipart upload has sent parts before the failure.
      for (let i = 0; i < bytes.length; i += 1024 * 1024) {
        yield bytes.subarray(i, i + 1024 * 1024);
        await new Promise(setImmediate);
      }
      throw error;
    })(),
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const id = () => randomBytes(6).toString('hex');

interface StoreUnderTest {
  store: FileStore;
  /** Files still in the disk store's incoming directory (disk only). */
  incoming?: () => string[];
  /** Writes a part of a resumable upload where the partial uploads live (beside the files). */
  writePartial: (name: string) => Promise<void>;
}

function contract(kind: 'disk' | 's3', open: () => Promise<StoreUnderTest & { stop(): Promise<void> }>) {
  describe.skipIf(isPostgres)(`the ${kind} file store`, () => {
    let subject: StoreUnderTest & { stop(): Promise<void> };
    beforeAll(async () => {
      subject = await open();
    });
    afterAll(async () => {
      await subject.store.close();
      await subject.stop();
    });

    it('stores a file and reads it back whole and by an inclusive byte range, with the whole size either way', async () => {
      const { store } = subject;
      const bytes = randomBytes(100_000);
      const key = `attachments/${id()}`;
      expect(await store.put(key, Readable.from([bytes.subarray(0, 40_000), bytes.subarray(40_000)]), { contentType: 'application/octet-stream' })).toEqual({ size: 100_000 });

      const whole = await store.read(key);
      expect(whole?.size).toBe(100_000);
      expect(sha256(await bytesOf(whole!.body))).toBe(sha256(bytes));

      const part = await store.read(key, { start: 10, end: 19 });
      expect(part?.size).toBe(100_000);
      expect(await bytesOf(part!.body)).toEqual(bytes.subarray(10, 20));
      const last = await store.read(key, { start: 99_999, end: 99_999 });
      expect(await bytesOf(last!.body)).toEqual(bytes.subarray(99_999));

      expect(await store.read(`attachments/${id()}`)).toBeUndefined();
    });

    it('gives the path of a stored file on this machine’s disk, none in S3', async () => {
      const { store } = subject;
      const bytes = randomBytes(10_000);
      const key = `attachments/${id()}`;
      await store.put(key, Readable.from([bytes]));
      const path = store.localPath(key);
      if (kind === 'disk') expect(readFileSync(path ?? '')).toEqual(bytes);
      else expect(path).toBeUndefined();
    });

    it('deletes a file, and deleting a missing one is no error', async () => {
      const { store } = subject;
      const key = `thumbnails/${id()}.webp`;
      await store.put(key, Readable.from([Buffer.from('thumbnail')]), { contentType: 'image/webp' });
      await store.delete(key);
      expect(await store.read(key)).toBeUndefined();
      await store.delete(key);
      await store.delete(`attachments/${id()}`);
    });

    it('lists every key, nested ones included, and an empty file is a file', async () => {
      const { store } = subject;
      const before = await keysOf(store);
      const keys = [`attachments/${id()}`, `thumbnails/${id()}.webp`, `attachments/${id()}`];
      for (const key of keys) await store.put(key, Readable.from([Buffer.from(key)]));
      await store.put(`attachments/empty-${id()}`, Readable.from([]));
      const after = await keysOf(store);
      expect(after.filter((key) => !before.includes(key))).toHaveLength(4);
      expect(after).toEqual(expect.arrayContaining(keys));
    });

    it('does not list the resumable uploads in progress kept beside the files', async () => {
      const { store } = subject;
      const key = `attachments/${id()}`;
      await store.put(key, Readable.from([Buffer.from('x')]));
      const partial = id();
      await subject.writePartial(partial);
      const keys = await keysOf(store);
      expect(keys).toContain(key);
      expect(keys.filter((listed) => listed.includes(partial))).toEqual([]);
    });

    it('a body that fails half-way rejects with its own error and leaves nothing at the key', async () => {
      const { store } = subject;
      const key = `attachments/${id()}`;
      const limit = new Error('ATTACHMENT_TOO_LARGE');
      await expect(store.put(key, failingBody(randomBytes(300_000), limit))).rejects.toBe(limit);
      expect(await store.read(key)).toBeUndefined();
      expect(await keysOf(store)).not.toContain(key);
      if (subject.incoming !== undefined) expect(subject.incoming()).toEqual([]);
    });

    if (kind === 'disk') {
      it('a handed-over body is stored whole, and each chunk that is all of its own memory is freed once written', async () => {
        const { store } = subject;
        const key = `attachments/${id()}`;
        // As a request arrives: many 64 KiB socket reads (each its own memory), a slice of a larger Buffer and a small one.
        const reads = Array.from({ length: 40 }, () => randomBytes(64 * 1024));
        const larger = randomBytes(100_000);
        const slice = larger.subarray(10, 50_000);
        const small = Buffer.from('tail');
        const expected = Buffer.concat([...reads, slice, small]);
        expect(await store.put(key, Readable.from([...reads, slice, small]), { handOver: true })).toEqual({ size: expected.length });
        expect(sha256(await bytesOf((await store.read(key))!.body))).toBe(sha256(expected));
        expect(reads.every((read) => read.buffer.detached)).toBe(true);
        expect([larger.buffer.detached, small.buffer.detached]).toEqual([false, false]);
        expect(slice.subarray(0, 5)).toEqual(larger.subarray(10, 15));
      });

      it('a body not handed over is left as it was', async () => {
        const { store } = subject;
        const bytes = randomBytes(300_000);
        await store.put(`attachments/${id()}`, Readable.from([bytes]));
        expect(bytes.buffer.detached).toBe(false);
        expect(bytes.length).toBe(300_000);
      });

      it('refuses keys that could leave its directory, and gives no signed URL', async () => {
        const { store } = subject;
        for (const key of ['../outside', 'attachments/../../outside', '/etc/passwd', 'attachments\\x', '.incoming/x', '.uploads/x', '']) {
          await expect(store.read(key), key).rejects.toThrow(/Refused file key/);
          await expect(store.put(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(/Refused file key/);
        }
        const key = `attachments/${id()}`;
        await store.put(key, Readable.from([Buffer.from('x')]));
        expect(await store.signedUrl(key, { contentType: 'text/plain', contentDisposition: 'attachment' }, 60)).toBeUndefined();
      });
    }

    if (kind === 's3') {
      it('signs a URL whose answer is the file with the asked Content-Type and Content-Disposition', async () => {
        const { store } = subject;
        const key = `attachments/${id()}`;
        const bytes = randomBytes(5_000);
        await store.put(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
        const disposition = `attachment; filename="report.pdf"; filename*=UTF-8''r%C3%A9port.pdf`;
        const url = await store.signedUrl(key, { contentType: 'application/pdf', contentDisposition: disposition }, 3600);
        expect(url).toMatch(/X-Amz-Expires=300(&|$)/);
        const res = await fetch(url!);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('content-disposition')).toBe(disposition);
        expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
      });

      it('stores a 20 MB file as a multipart upload and reads it back', async () => {
        const { store } = subject;
        const key = `attachments/${id()}`;
        const bytes = randomBytes(20 * 1024 * 1024 + 123);
        const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
        expect(await store.put(key, Readable.from(pieces))).toEqual({ size: bytes.length });
        const back = await store.read(key);
        expect(back?.size).toBe(bytes.length);
        expect(sha256(await bytesOf(back!.body))).toBe(sha256(bytes));
        const tail = await store.read(key, { start: bytes.length - 10, end: bytes.length - 1 });
        expect(tail?.size).toBe(bytes.length);
        expect(await bytesOf(tail!.body)).toEqual(bytes.subarray(-10));
      });

      it('a multipart upload whose body fails after two parts is aborted: nothing at the key', async () => {
        const { store } = subject;
        const key = `attachments/${id()}`;
        const cut = new Error('connection cut');
        await expect(store.put(key, failingBody(randomBytes(17 * 1024 * 1024), cut))).rejects.toBe(cut);
        expect(await store.read(key)).toBeUndefined();
        expect(await keysOf(store)).not.toContain(key);
      });
    }
  });
}

contract('disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-files-'));
  const incoming = join(dir, '.incoming');
  return Promise.resolve({
    store: createDiskStore(dir),
    incoming: () => (existsSync(incoming) ? readdirSync(incoming) : []),
    async writePartial(name) {
      await mkdir(join(dir, PARTIAL_UPLOADS_DIR), { recursive: true });
      await writeFile(join(dir, PARTIAL_UPLOADS_DIR, name), 'part');
    },
    stop: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
});

contract('s3', async () => {
  const server: TestS3Server = await startS3Server();
  const store = createFileStore(server.config);
  const writePartial = async (name: string) => {
    await store.put(`${PARTIAL_UPLOADS_PREFIX}${name}.part`, Readable.from([Buffer.from('part')]));
  };
  return { store, writePartial, stop: () => server.stop() };
});
