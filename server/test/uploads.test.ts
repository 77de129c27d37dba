import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { DetailedError, Upload, type UploadOptions } from 'tus-js-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Attachment } from '#shared/schemas/attachments.ts';
import { build } from '../app.ts';
import { PARTIAL_UPLOADS_DIR } from '../files/disk-store.ts';
import { createUploadLocker } from '../files/upload-locker.ts';
import { sweep } from '../plugins/housekeeping.ts';
import { attachmentsApi } from './attachments-support.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { HOUR, isPostgres, TEST_ORIGIN, useTestApp } from './helpers.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';
import { createToken } from './tokens-support.ts';

const t = useTestApp();
const api = attachmentsApi(t);
const MB = 1024 * 1024;

/** Alice's board where Victor is a viewer; Alice's task on it; Carol sees nothing. */
async function scene() {
  const alice = await createSignedInUser(t);
  const victor = await createSignedInUser(t);
  const carol = await createSignedInUser(t);
  const board = await insertBoard(t, alice.user, [{ who: victor.user, role: 'viewer' }]);
  const task = await createTask(t, alice.cookie, { assignee: alice.user.email, boardId: board.id });
  return { alice, victor, carol, task };
}

/** A PNG of noise: it does not compress, so it is about as large as its pixels (3 bytes each). */
const noisePng = (side: number) => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();

async function origin(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

/** The ids of the uploads in progress, wherever the app keeps them. */
async function partialIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const id of t.app.partialUploads.ids()) ids.push(id);
  return ids;
}

interface Sent {
  status: number;
  body: string;
  header: (name: string) => string | undefined;
  url: string | null;
}

/** Runs a tus-js-client upload to its end: its last answer on success, the refusal's on error. */
async function send(data: Buffer | Readable, cookie: string | undefined, metadata: Record<string, string>, more: Partial<UploadOptions> = {}): Promise<Sent> {
  const endpoint = `${await origin()}/api/uploads`;
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint,
      chunkSize: MB,
      metadata,
      headers: cookie === undefined ? {} : { cookie },
      retryDelays: [],
      ...more,
      onSuccess: ({ lastResponse }) => {
        resolve({ status: lastResponse.getStatus(), body: lastResponse.getBody(), header: (name) => lastResponse.getHeader(name), url: upload.url });
      },
      onError: (error) => {
        const response = error instanceof DetailedError ? error.originalResponse : null;
        if (response === null) reject(error);
        else resolve({ status: response.getStatus(), body: response.getBody(), header: (name) => response.getHeader(name), url: upload.url });
      },
    });
    upload.start();
  });
}

/** Starts an upload and aborts it once `chunks` chunks are accepted: resolves with its URL. */
async function sendPart(data: Buffer, cookie: string, metadata: Record<string, string>, chunks: number): Promise<string> {
  const endpoint = `${await origin()}/api/uploads`;
  return new Promise((resolve, reject) => {
    let accepted = 0;
    const upload = new Upload(data, {
      endpoint,
      chunkSize: MB,
      metadata,
      headers: { cookie },
      retryDelays: [],
      onChunkComplete: () => {
        accepted += 1;
        if (accepted === chunks) {
          void upload.abort().then(() => {
            resolve(upload.url ?? '');
          }, reject);
        }
      },
      onSuccess: () => {
        reject(new Error('the upload finished before it was aborted'));
      },
      onError: reject,
    });
    upload.start();
  });
}

/** A raw tus request, for what tus-js-client would never send. */
async function tusRequest(method: string, path: string, cookie: string | undefined, headers: Record<string, string> = {}, body?: Buffer) {
  const res = await fetch(`${await origin()}${path}`, {
    method,
    headers: { 'tus-resumable': '1.0.0', ...(cookie === undefined ? {} : { cookie }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text === '' ? {} : JSON.parse(text)) as { code?: string; status?: string } };
}

const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** The bytes at an attachment's URL: served by the app, or (S3) at the signed URL it redirects to. */
async function bytesAt(cookie: string, url: string): Promise<Buffer> {
  const file = await api.file(cookie, url);
  if (file.status === 302) return Buffer.from(await (await fetch(String(file.headers.location))).arrayBuffer());
  expect(file.status).toBe(200);
  return file.bytes;
}

function everyStorage(storage: 'disk' | 's3') {
  describe(`resumable uploads with files on ${storage}`, () => {
    if (storage === 's3') {
      let server: TestS3Server | undefined;
      beforeAll(async () => {
        server = await startS3Server();
      });
      afterAll(async () => {
        await server?.stop();
      });
      beforeEach(async () => {
        if (server === undefined) throw new Error('no S3 server');
        await t.rebuild({}, { files: server.config });
        // One bucket for the file's tests: each starts with it empty (a disk store is new for each app).
        for (const id of await partialIds()) await t.app.partialUploads.remove(id);
        for (const key of await api.storedKeys()) await t.app.files.delete(key);
      });
    }

    it('a 3 MB file sent in 1 MB chunks becomes an attachment, told in the last answer; the partial upload is gone', async () => {
      const { alice, task } = await scene();
      const bytes = await noisePng(1024);
      expect(bytes.length).toBeGreaterThan(3 * MB);
      const sent = await send(bytes, alice.cookie, { taskId: task._id, filename: 'noise.png' });
      expect(sent.status, sent.body).toBe(200);
      const { attachment } = (JSON.parse(sent.body) as { data: { attachment: Attachment } }).data;
      expect(sent.header('upload-attachment-id')).toBe(attachment._id);
      expect(attachment).toMatchObject({ name: 'noise.png', size: bytes.length, type: 'image/png', width: 1024, height: 1024 });
      expect(attachment.thumbnailUrl).not.toBeNull();
      expect((await api.list(alice.cookie, task._id)).map((a) => a._id)).toEqual([attachment._id]);
      expect((await bytesAt(alice.cookie, attachment.url)).equals(bytes)).toBe(true);
      expect(await partialIds()).toEqual([]);
      expect(await api.storedKeys()).toEqual([`attachments/${attachment._id}`, `thumbnails/${attachment._id}.webp`]);
    });

    it('an upload cut off half-way resumes from its URL and ends with the exact bytes and one attachment', async () => {
      const { alice, task } = await scene();
      const bytes = randomBytes(3 * MB + 123);
      const metadata = { taskId: task._id, filename: 'data.bin' };
      const url = await sendPart(bytes, alice.cookie, metadata, 1);
      expect(await partialIds()).toHaveLength(1);
      const head = await tusRequest('HEAD', new URL(url).pathname, alice.cookie);
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('upload-offset'))).toBe(MB);
      const sent = await send(bytes, alice.cookie, metadata, { uploadUrl: url });
      expect(sent.status, sent.body).toBe(200);
      expect(sent.url).toBe(url);
      const attachments = await api.list(alice.cookie, task._id);
      expect(attachments).toHaveLength(1);
      expect(attachments[0]).toMatchObject({ name: 'data.bin', size: bytes.length, type: 'application/octet-stream' });
      expect((await bytesAt(alice.cookie, attachments[0]!.url)).equals(bytes)).toBe(true);
      expect(await partialIds()).toEqual([]);
    });

    it('refuses before storing anything: not signed in 401, a task out of sight 404, a viewer 403, past the size limit 413', async () => {
      const { alice, victor, carol, task } = await scene();
      const bytes = randomBytes(1000);
      const metadata = { taskId: task._id, filename: 'x.bin' };
      const refusals = [
        { who: undefined, status: 401, code: 'NOT_AUTHENTICATED' },
        { who: carol.cookie, status: 404, code: 'NOT_FOUND' },
        { who: victor.cookie, status: 403, code: 'FORBIDDEN' },
      ];
      for (const { who, status, code } of refusals) {
        const sent = await send(bytes, who, metadata);
        expect(sent.status, sent.body).toBe(status);
        expect(JSON.parse(sent.body)).toMatchObject({ status: 'fail', code });
      }
      const noTask = await send(bytes, alice.cookie, { filename: 'x.bin' });
      expect([noTask.status, (JSON.parse(noTask.body) as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
      const tooLarge = await tusRequest('POST', '/api/uploads', alice.cookie, { 'upload-length': String(t.config.attachments.maxFileBytes + 1), 'upload-metadata': metadataHeader(metadata) });
      expect([tooLarge.status, tooLarge.json.code]).toEqual([413, 'FILE_TOO_LARGE']);
      const deferred = await tusRequest('POST', '/api/uploads', alice.cookie, { 'upload-defer-length': '1', 'upload-metadata': metadataHeader(metadata) });
      expect([deferred.status, deferred.json.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(await partialIds()).toEqual([]);
      expect(await api.list(alice.cookie, task._id)).toEqual([]);
      expect(await api.storedKeys()).toEqual([]);
    });

    it('answers protocol errors in the same envelope, and its CORS headers name no origin beyond CORS_ORIGINS', async () => {
      const { alice, task } = await scene();
      const metadata = metadataHeader({ taskId: task._id, filename: 'x.bin' });
      const noVersion = await fetch(`${await origin()}/api/uploads`, { method: 'POST', headers: { cookie: alice.cookie, 'upload-length': '10', 'upload-metadata': metadata } });
      expect(noVersion.status).toBe(412);
      expect(noVersion.headers.get('tus-resumable')).toBe('1.0.0');
      expect(noVersion.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await noVersion.json()).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
      const created = await tusRequest('POST', '/api/uploads', alice.cookie, { origin: TEST_ORIGIN, 'upload-length': '10', 'upload-metadata': metadata });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toMatch(/^\/api\/uploads\/[\w-]+\.[\w-]+$/);
      expect(created.headers.get('access-control-allow-origin')).toBeNull();
      const foreign = await tusRequest('POST', '/api/uploads', alice.cookie, { origin: 'https://evil.example', 'upload-length': '10', 'upload-metadata': metadata });
      expect([foreign.status, foreign.json.code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('takes an API token instead of the session: a write token uploads, a read token is refused (403 TOKEN_READ_ONLY)', async () => {
      const { alice, task } = await scene();
      const bytes = randomBytes(1500);
      const metadata = { taskId: task._id, filename: 'by-script.bin' };
      const write = await createToken(t, alice.cookie);
      const sent = await send(bytes, undefined, metadata, { headers: { authorization: `Bearer ${write.secret}` } });
      expect(sent.status, sent.body).toBe(200);
      const read = await createToken(t, alice.cookie, { access: 'read' });
      const refused = await send(bytes, undefined, metadata, { headers: { authorization: `Bearer ${read.secret}` } });
      expect([refused.status, (JSON.parse(refused.body) as { code: string }).code]).toEqual([403, 'TOKEN_READ_ONLY']);
      expect((await api.list(alice.cookie, task._id)).map((a) => a.name)).toEqual(['by-script.bin']);
    });

    it("someone else's upload is 404 to HEAD, PATCH and DELETE, and is left as it was", async () => {
      const { alice, carol, task } = await scene();
      const bytes = randomBytes(2 * MB);
      const url = await sendPart(bytes, alice.cookie, { taskId: task._id, filename: 'mine.bin' }, 1);
      const path = new URL(url).pathname;
      const head = await tusRequest('HEAD', path, carol.cookie);
      expect(head.status).toBe(404);
      const patch = await tusRequest('PATCH', path, carol.cookie, { 'upload-offset': String(MB), 'content-type': 'application/offset+octet-stream' }, randomBytes(10));
      expect([patch.status, patch.json.code]).toEqual([404, 'NOT_FOUND']);
      const del = await tusRequest('DELETE', path, carol.cookie);
      expect([del.status, del.json.code]).toEqual([404, 'NOT_FOUND']);
      const mine = await tusRequest('HEAD', path, alice.cookie);
      expect([mine.status, mine.headers.get('upload-offset')]).toEqual([200, String(MB)]);
    });

    it('a finished upload the task can no longer take is answered with the refusal, and nothing is kept', async () => {
      const { alice, task } = await scene();
      const bytes = randomBytes(2 * MB);
      const metadata = { taskId: task._id, filename: 'late.bin' };
      const url = await sendPart(bytes, alice.cookie, metadata, 1);
      // Files added elsewhere meanwhile fill the task.
      await t.app.db.updateTable('tasks').set({ attachmentCount: 100 }).where('id', '=', task._id).execute();
      const sent = await send(bytes, alice.cookie, metadata, { uploadUrl: url });
      expect([sent.status, (JSON.parse(sent.body) as { code: string }).code]).toEqual([409, 'LIMIT_REACHED']);
      expect(await partialIds()).toEqual([]);
      expect(await api.storedKeys()).toEqual([]);
      expect(await api.list(alice.cookie, task._id)).toEqual([]);
    });

    it('termination (DELETE) removes the partial upload', async () => {
      const { alice, task } = await scene();
      const url = await sendPart(randomBytes(2 * MB), alice.cookie, { taskId: task._id, filename: 'gone.bin' }, 1);
      expect(await partialIds()).toHaveLength(1);
      await Upload.terminate(url, { headers: { cookie: alice.cookie } });
      expect(await partialIds()).toEqual([]);
      expect((await tusRequest('HEAD', new URL(url).pathname, alice.cookie)).status).toBe(404);
      expect(await api.storedKeys()).toEqual([]);
    });

    it('an upload left unfinished is removed by the housekeeping once it is a day old', async () => {
      const { alice, task } = await scene();
      await sendPart(randomBytes(2 * MB), alice.cookie, { taskId: task._id, filename: 'left.bin' }, 1);
      t.clock.advance(23 * HOUR);
      expect((await sweep(t.app)).partialUploads).toBe(0);
      expect(await partialIds()).toHaveLength(1);
      t.clock.advance(2 * HOUR);
      expect((await sweep(t.app)).partialUploads).toBe(1);
      expect(await partialIds()).toEqual([]);
    });

    if (storage === 'disk') {
      it('keeps partial uploads beside the files, where the file check does not see them', async () => {
        const { alice, task } = await scene();
        await sendPart(randomBytes(2 * MB), alice.cookie, { taskId: task._id, filename: 'beside.bin' }, 1);
        const files = t.config.files;
        if (files.kind !== 'disk') throw new Error('disk expected');
        expect((await readdir(join(files.dir, PARTIAL_UPLOADS_DIR))).length).toBeGreaterThan(0);
        expect(await api.storedKeys()).toEqual([]);
      });
    }
  });
}

everyStorage('disk');
everyStorage('s3');

/** A second instance of the app: the same configuration (database, files directory or bucket) and clock, its own process state. */
async function secondInstance(): Promise<{ app: FastifyInstance; origin: string }> {
  const app = await build({ config: t.config, clock: t.clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describe('uploads across instances', () => {
  it('an upload begun at one instance is resumed at another and becomes one attachment', async () => {
    const { alice, task } = await scene();
    const bytes = randomBytes(3 * MB);
    const metadata = { taskId: task._id, filename: 'moved.bin' };
    const url = await sendPart(bytes, alice.cookie, metadata, 1);
    const other = await secondInstance();
    try {
      const sent = await send(bytes, alice.cookie, metadata, { uploadUrl: `${other.origin}${new URL(url).pathname}` });
      expect(sent.status, sent.body).toBe(200);
      const attachments = await api.list(alice.cookie, task._id);
      expect(attachments.map((a) => a.size)).toEqual([bytes.length]);
      expect((await bytesAt(alice.cookie, attachments[0]!.url)).equals(bytes)).toBe(true);
    } finally {
      await other.app.close();
    }
  });

  it.runIf(isPostgres)('a PATCH at one instance waits for the PATCH of the same upload at another, then finds the offset moved (409)', async () => {
    const { alice, task } = await scene();
    const url = await sendPart(randomBytes(2 * MB), alice.cookie, { taskId: task._id, filename: 'race.bin' }, 1);
    const path = new URL(url).pathname;
    const other = await secondInstance();
    try {
      const first = randomBytes(256 * 1024);
      const second = randomBytes(256 * 1024);
      const headers = { 'tus-resumable': '1.0.0', 'upload-offset': String(MB), 'content-type': 'application/offset+octet-stream', cookie: alice.cookie };
      // The first PATCH sends half its body, then holds the upload's lock until the rest is sent.
      const slow = request(`${await origin()}${path}`, { method: 'PATCH', headers: { ...headers, 'content-length': String(first.length) } });
      const slowAnswer = new Promise<number>((resolve, reject) => {
        slow.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        slow.on('error', reject);
      });
      slow.write(first.subarray(0, first.length / 2));
      const pollers = async () => {
        const { rows } = await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity where query like '%pg_try_advisory_lock(hashtextextended(''taskwise.upload.%' and pid <> pg_backend_pid()`.execute(t.app.db);
        return Number(rows[0]?.n ?? 0);
      };
      await expect.poll(pollers).toBeGreaterThanOrEqual(1);
      const raced = fetch(`${other.origin}${path}`, { method: 'PATCH', headers, body: second });
      // Both instances' lock connections have asked: the second one is waiting for the first.
      await expect.poll(pollers).toBeGreaterThanOrEqual(2);
      slow.end(first.subarray(first.length / 2));
      expect(await slowAnswer).toBe(204);
      const racedAnswer = await raced;
      expect([racedAnswer.status, ((await racedAnswer.json()) as { code: string }).code]).toEqual([409, 'CONFLICT']);
      const head = await tusRequest('HEAD', path, alice.cookie);
      expect(head.headers.get('upload-offset')).toBe(String(MB + first.length));
    } finally {
      await other.app.close();
    }
  });
});

describe.runIf(isPostgres)('upload locks on PostgreSQL', () => {
  it('an upload locked by one instance cannot be locked by another until it is unlocked', async () => {
    const one = createUploadLocker(t.config.database);
    const other = createUploadLocker(t.config.database, { acquireTimeoutMs: 0 });
    try {
      const held = one.locker.newLock('u1');
      await held.lock(new AbortController().signal, () => undefined);
      await expect(other.locker.newLock('u1').lock(new AbortController().signal, () => undefined)).rejects.toMatchObject({ status_code: 500 });
      const free = other.locker.newLock('u2');
      await free.lock(new AbortController().signal, () => undefined);
      await free.unlock();
      await held.unlock();
      const next = other.locker.newLock('u1');
      await next.lock(new AbortController().signal, () => undefined);
      await next.unlock();
    } finally {
      await one.close();
      await other.close();
    }
  });
});
