import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import type { Activity } from '#shared/schemas/comments.ts';
import { attachmentsApi } from './attachments-support.ts';
import { boardEventsOf, lastEventId } from './boards-support.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { HOUR, SECOND, anyString, isPostgres, useTestApp } from './helpers.ts';

const t = useTestApp();
const api = attachmentsApi(t);
// The file's tests share a database but not a file store: sweeps an earlier test left due name its files, not this one's.
beforeEach(async () => {
  await t.app.db.deleteFrom('fileSweeps').execute();
});

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
/** A JPEG stored 600×400 whose EXIF orientation (6: turned 90°) shows it 400×600. */
const turnedJpeg = () => sharp({ create: { width: 600, height: 400, channels: 3, background: '#cc6633' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** Alice's board where Mia is a member and Victor a viewer; Alice's task on it; Carol sees nothing. */
async function scene() {
  const alice = await createSignedInUser(t);
  const mia = await createSignedInUser(t);
  const victor = await createSignedInUser(t);
  const carol = await createSignedInUser(t);
  const board = await insertBoard(t, alice.user, [{ who: mia.user, role: 'member' }, { who: victor.user, role: 'viewer' }]);
  const task = await createTask(t, alice.cookie, { assignee: alice.user.email, boardId: board.id });
  return { alice, mia, victor, carol, board, task };
}

/**
 * The rules every storage keeps: run on local disk and on S3 (an s3rver the test starts: an
 * independent implementation of the protocol, not our code).
 */
function everyStorage(storage: 'disk' | 's3') {
  describe(`files on ${storage}`, () => {
    /** The storage's configuration, for a test that rebuilds the app with another setting. */
    const env: Record<string, string> = {};
    if (storage === 's3') {
      let server: S3rver | undefined;
      let dir = '';
      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'taskwise-s3rver-'));
        server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'taskwise-test' }] });
        const { port } = await server.run();
        env.S3_URL = `s3://S3RVER:S3RVER@127.0.0.1:${port}/taskwise-test?region=us-east-1&forcePathStyle=true`;
      });
      beforeEach(async () => {
        await t.rebuild(env);
        // One bucket for the file's tests: each starts with it empty (a disk store is new for each app).
        for (const key of await api.storedKeys()) await t.app.files.delete(key);
      });
      afterAll(async () => {
        await server?.close();
        rmSync(dir, { recursive: true, force: true });
      });
    }

    it('stores an image: 201 with what its bytes are, a thumbnail, the task counted and a version up; served inline with safe headers', async () => {
      const { alice, task } = await scene();
      t.clock.advance(SECOND);
      const bytes = await png(1200, 800);
      const res = await api.upload(alice.cookie, task._id, 'photo.jpg', bytes, { type: 'text/html' });
      expect(res.status, res.body).toBe(201);
      const attachment = res.json.data!.attachment;
      expect(attachment).toEqual({
        _id: anyString,
        name: 'photo.jpg',
        size: bytes.length,
        type: 'image/png',
        width: 1200,
        height: 800,
        url: `/api/attachments/${attachment._id}`,
        thumbnailUrl: `/api/attachments/${attachment._id}/thumbnail`,
        by: { fullName: alice.user.fullName, email: alice.user.email },
        createdAt: t.clock.now().toISOString(),
      });
      expect(await api.list(alice.cookie, task._id)).toEqual([attachment]);
      const after = await api.task(alice.cookie, task._id);
      expect(after).toMatchObject({ attachmentCount: 1, version: task.version + 1, cover: null });

      const file = await api.file(alice.cookie, attachment.url);
      expect(file.status).toBe(200);
      expect(Buffer.compare(file.bytes, bytes)).toBe(0);
      expect(file.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(bytes.length),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
        'content-disposition': 'inline; filename=photo.jpg',
      });
      const thumbnail = await api.file(alice.cookie, attachment.thumbnailUrl!);
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ format: 'webp', width: 480, height: 320 });
      // Nothing left to sweep: the upload's row took its files.
      expect(await api.sweepsLeft()).toBe(0);
    });

    it('serves any other file as a download under its name, answers a range with 206 and one past the end with 416', async () => {
      const { alice, task } = await scene();
      const res = await api.upload(alice.cookie, task._id, 'Отчёт Q3.png', PDF, { type: 'image/png' });
      expect(res.status, res.body).toBe(201);
      const attachment = res.json.data!.attachment;
      expect(attachment).toMatchObject({ name: 'Отчёт Q3.png', type: 'application/pdf', size: PDF.length });
      expect(attachment).not.toHaveProperty('thumbnailUrl');
      const file = await api.file(alice.cookie, attachment.url);
      if (storage === 's3') {
        // A download from S3 is a redirect to a signed URL valid five minutes.
        expect(file.status).toBe(302);
        const location = String(file.headers.location);
        expect(location).toContain('X-Amz-Expires=300');
        const signed = await fetch(location);
        expect(signed.status).toBe(200);
        expect(Buffer.compare(Buffer.from(await signed.arrayBuffer()), PDF)).toBe(0);
        expect(signed.headers.get('content-disposition')).toBe(`attachment; filename="????? Q3.png"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20Q3.png`);
        return;
      }
      expect(file.status).toBe(200);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="????? Q3.png"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20Q3.png`);
      expect(file.headers['content-type']).toBe('application/pdf');
      const part = await api.file(alice.cookie, attachment.url, { range: 'bytes=5-9' });
      expect(part.status).toBe(206);
      expect(part.headers).toMatchObject({ 'content-range': `bytes 5-9/${PDF.length}`, 'content-length': '5', 'x-content-type-options': 'nosniff' });
      expect(part.bytes.toString()).toBe(PDF.subarray(5, 10).toString());
      const past = await api.file(alice.cookie, attachment.url, { range: `bytes=${PDF.length + 10}-` });
      expect(past.status).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${PDF.length}`);
    });

    it('deletes an attachment (its uploader): 204, the count and version follow, and its files are swept', async () => {
      const { alice, task } = await scene();
      const image = (await api.upload(alice.cookie, task._id, 'a.png', await png(64, 64))).json.data!.attachment;
      expect(await api.storedKeys()).toEqual([`attachments/${image._id}`, `thumbnails/${image._id}.webp`]);
      const res = await api.remove(alice.cookie, task._id, image._id);
      expect(res.status, res.body).toBe(204);
      expect(await api.list(alice.cookie, task._id)).toEqual([]);
      expect(await api.task(alice.cookie, task._id)).toMatchObject({ attachmentCount: 0, version: task.version + 2 });
      expect((await api.file(alice.cookie, image.url)).status).toBe(404);
      expect(await api.sweep()).toBe(2);
      expect(await api.storedKeys()).toEqual([]);
    });

    it('a refused upload leaves no row, no file and nothing to sweep', async () => {
      const { alice, task } = await scene();
      await t.rebuild({ ...env, BOARD_STORAGE_MB: '1' });
      const first = await api.upload(alice.cookie, task._id, 'big.bin', Buffer.alloc(600_000, 1));
      expect(first.status, first.body).toBe(201);
      const second = await api.upload(alice.cookie, task._id, 'bigger.bin', Buffer.alloc(600_000, 2));
      expect(second.status).toBe(409);
      expect(second.json).toMatchObject({ code: 'QUOTA_EXCEEDED', message: ATTACHMENT_MESSAGES.boardStorageFull });
      expect((await api.list(alice.cookie, task._id)).map((a) => a.name)).toEqual(['big.bin']);
      expect(await api.storedKeys()).toEqual([`attachments/${first.json.data!.attachment._id}`]);
      expect(await api.sweepsLeft()).toBe(0);
    });
  });
}

everyStorage('disk');
everyStorage('s3');

describe('attachments', () => {
  it('an image keeps its orientation: a turned JPEG is as wide as it shows', async () => {
    const { alice, task } = await scene();
    const res = await api.upload(alice.cookie, task._id, 'turned.jpg', await turnedJpeg());
    expect(res.status, res.body).toBe(201);
    expect(res.json.data!.attachment).toMatchObject({ type: 'image/jpeg', width: 400, height: 600 });
    const thumbnail = await api.file(alice.cookie, res.json.data!.attachment.thumbnailUrl!);
    expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ width: 400, height: 600 });
  });

  it('a broken image is kept as a plain file, without a thumbnail', async () => {
    const { alice, task } = await scene();
    const whole = await png(300, 200);
    const res = await api.upload(alice.cookie, task._id, 'broken.png', whole.subarray(0, 200));
    expect(res.status, res.body).toBe(201);
    const attachment = res.json.data!.attachment;
    expect(attachment.type).toBe('image/png');
    expect(attachment).not.toHaveProperty('thumbnailUrl');
    expect(attachment).not.toHaveProperty('width');
  });

  it('SVG and HTML are downloads, never shown', async () => {
    const { alice, task } = await scene();
    // Both sent as SVG: the type is what the bytes are, and neither is shown.
    const cases = [
      ['x.svg', SVG, 'image/svg+xml'],
      ['x.html', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/plain'],
    ] as const;
    for (const [name, bytes, type] of cases) {
      const attachment = (await api.upload(alice.cookie, task._id, name, bytes, { type: 'image/svg+xml' })).json.data!.attachment;
      expect(attachment.type).toBe(type);
      expect(attachment).not.toHaveProperty('thumbnailUrl');
      const file = await api.file(alice.cookie, attachment.url);
      expect(file.headers['content-type']).toBe(type);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-disposition']).toBe(`attachment; filename=${name}`);
      expect(file.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    }
  });

  it('turns back the escapes a browser writes in a form’s file name (quotes, line breaks), and no other', async () => {
    const { alice, task } = await scene();
    // As Chromium sends `Budget "final"⏎v2.txt` in a FormData (measured), and a name with "%"
    // that is no such escape.
    const sent = (await api.upload(alice.cookie, task._id, 'Budget %22final%22%0Av2.txt', Buffer.from('x'))).json.data!.attachment;
    expect(sent.name).toBe('Budget "final"v2.txt');
    const file = await api.file(alice.cookie, sent.url);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="Budget \\"final\\"v2.txt"`);
    const percent = (await api.upload(alice.cookie, task._id, '100%25 done %41.txt', Buffer.from('x'))).json.data!.attachment;
    expect(percent.name).toBe('100%25 done %41.txt');
  });

  it('who: editors add (a viewer 403, someone who cannot see the task 404); the uploader and admins delete, another member 403', async () => {
    const { alice, mia, victor, carol, task } = await scene();
    const bytes = Buffer.from('hello');
    expect((await api.upload(victor.cookie, task._id, 'v.txt', bytes)).status).toBe(403);
    expect((await api.upload(carol.cookie, task._id, 'c.txt', bytes)).status).toBe(404);
    const byMia = (await api.upload(mia.cookie, task._id, 'm.txt', bytes)).json.data!.attachment;
    t.clock.advance(SECOND);
    const byAlice = (await api.upload(alice.cookie, task._id, 'a.txt', bytes)).json.data!.attachment;
    expect(byMia.type).toBe('text/plain');
    // Anyone who sees the task lists and opens its files; no one else, not even by id.
    expect((await api.list(victor.cookie, task._id)).map((a) => a.name)).toEqual(['a.txt', 'm.txt']);
    expect((await api.file(victor.cookie, byMia.url)).status).toBe(200);
    expect((await api.file(carol.cookie, byMia.url)).status).toBe(404);
    expect((await t.request('GET', `/api/tasks/${task._id}/attachments`, { cookie: carol.cookie })).status).toBe(404);

    const refused = await api.remove(mia.cookie, task._id, byAlice._id);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(ATTACHMENT_MESSAGES.notAttachmentRemover);
    expect((await api.remove(victor.cookie, task._id, byMia._id)).status).toBe(403);
    expect((await api.remove(mia.cookie, task._id, byMia._id)).status).toBe(204);
    expect((await api.remove(alice.cookie, task._id, byAlice._id)).status).toBe(204);
    expect((await api.remove(alice.cookie, task._id, byAlice._id)).status).toBe(404);
  });

  it('refuses a file past ATTACHMENT_MAX_MB with 413 (one at the limit is taken), a task past 100 files with 409, and bad forms with 4xx', async () => {
    await t.rebuild({ ATTACHMENT_MAX_MB: '1' });
    const { alice, task } = await scene();
    const over = await api.upload(alice.cookie, task._id, 'over.bin', Buffer.alloc(1_000_001));
    expect(over.status).toBe(413);
    expect(over.json).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'A file can be at most 1 MB.' });
    expect(await api.storedKeys()).toEqual([]);
    expect(await api.sweepsLeft()).toBe(0);
    expect((await api.upload(alice.cookie, task._id, 'limit.bin', Buffer.alloc(1_000_000))).status).toBe(201);

    await t.app.db.updateTable('tasks').set({ attachmentCount: 100 }).where('id', '=', task._id).execute();
    const full = await api.upload(alice.cookie, task._id, 'one-more.txt', Buffer.from('x'));
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ code: 'LIMIT_REACHED', message: ATTACHMENT_MESSAGES.attachmentsFull });

    const other = await createTask(t, alice.cookie);
    const wrongField = await api.upload(alice.cookie, other._id, 'a.txt', Buffer.from('x'), { field: 'upload' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.message).toBe(ATTACHMENT_MESSAGES.noFileSent);
    const json = await t.request('POST', `/api/tasks/${other._id}/attachments`, { cookie: alice.cookie, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(await api.list(alice.cookie, other._id)).toEqual([]);
  });

  it('a cover is one of the task\'s images: set, shown on the task, refused for anything else, cleared when its file goes', async () => {
    const { alice, task } = await scene();
    const image = (await api.upload(alice.cookie, task._id, 'cover.png', await png(960, 540))).json.data!.attachment;
    const pdf = (await api.upload(alice.cookie, task._id, 'doc.pdf', PDF)).json.data!.attachment;
    const elsewhere = await createTask(t, alice.cookie);
    const foreign = (await api.upload(alice.cookie, elsewhere._id, 'other.png', await png(10, 10))).json.data!.attachment;

    for (const coverId of [pdf._id, foreign._id, 'no-such-id']) {
      const res = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: alice.cookie, body: { coverId } });
      expect(res.status, coverId).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'coverId', message: ATTACHMENT_MESSAGES.coverNotImage }]);
    }
    // With other changes, a refused cover refuses them too: nothing is written.
    const unchanged = await api.task(alice.cookie, task._id);
    const mixed = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: alice.cookie, body: { priority: unchanged.priority === 'urgent' ? 'low' : 'urgent', taskTitle: 'Renamed', coverId: pdf._id } });
    expect(mixed.status).toBe(400);
    expect(await api.task(alice.cookie, task._id)).toEqual(unchanged);
    const before = await api.task(alice.cookie, task._id);
    const set = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: alice.cookie, body: { coverId: image._id, version: before.version } });
    expect(set.status, set.body).toBe(200);
    const cover = { attachmentId: image._id, thumbnailUrl: image.thumbnailUrl, width: 960, height: 540 };
    expect(set.json.data.task).toMatchObject({ cover, version: before.version + 1 });
    // The board's list carries it too (read with the task row).
    const listed = await t.request('GET', `/api/tasks?boardId=${task.boardId}`, { cookie: alice.cookie });
    expect(listed.json.data.tasks.find((x) => x._id === task._id)).toMatchObject({ cover, attachmentCount: 2 });
    const stale = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: alice.cookie, body: { coverId: null, version: before.version } });
    expect(stale.status).toBe(409);

    expect((await api.remove(alice.cookie, task._id, image._id)).status).toBe(204);
    expect(await api.task(alice.cookie, task._id)).toMatchObject({ cover: null, attachmentCount: 1 });
  });

  it('each add and delete is in the activity, and sends attachment.* and task.updated to whoever sees the task', async () => {
    const { alice, board, task } = await scene();
    const from = await lastEventId(t);
    const attachment = (await api.upload(alice.cookie, task._id, 'notes.txt', Buffer.from('notes'))).json.data!.attachment;
    await api.remove(alice.cookie, task._id, attachment._id);
    const events = await boardEventsOf(t, board.id, from);
    expect(events.map((e) => e.type)).toEqual(['attachment.created', 'task.updated', 'attachment.deleted', 'task.updated']);
    const by = { fullName: alice.user.fullName, email: alice.user.email };
    expect(events[0]!.data).toEqual({ taskId: task._id, attachment, by });
    expect(events[2]!.data).toEqual({ taskId: task._id, attachment: { _id: attachment._id }, by });
    const activity = (await t.request('GET', `/api/tasks/${task._id}/activity`, { cookie: alice.cookie })).json as unknown as { data: { activity: Activity[] } };
    expect(activity.data.activity.slice(-2).map((a) => [a.type, a.changes])).toEqual([
      ['updated', { attachment: { from: null, to: 'notes.txt' } }],
      ['updated', { attachment: { from: 'notes.txt', to: null } }],
    ]);
  });

  it("a task's deletion (and so its board's) sweeps its files", async () => {
    const { alice, task } = await scene();
    await api.upload(alice.cookie, task._id, 'a.png', await png(32, 32));
    await api.upload(alice.cookie, task._id, 'b.txt', Buffer.from('b'));
    expect(await api.storedKeys()).toHaveLength(3);
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: alice.cookie })).status).toBe(204);
    expect(await api.sweep()).toBe(3);
    expect(await api.storedKeys()).toEqual([]);
    expect(await api.sweepsLeft()).toBe(0);
  });

  it("an account's deletion sweeps the files of its own tasks and keeps those it added to other people's", async () => {
    const { alice, mia, task } = await scene();
    // Her personal board's task assigned to herself goes with the account (one assigned to someone else would stay).
    const own = await createTask(t, mia.cookie, { assignee: mia.user.email });
    const mine = (await api.upload(mia.cookie, own._id, 'mine.txt', Buffer.from('mine'))).json.data!.attachment;
    const shared = (await api.upload(mia.cookie, task._id, 'shared.txt', Buffer.from('shared'))).json.data!.attachment;
    expect((await t.request('DELETE', '/api/users/me', { cookie: mia.cookie, body: { password: mia.user.password } })).status).toBe(204);
    expect(await api.sweep()).toBe(1);
    expect(await api.storedKeys()).toEqual([`attachments/${shared._id}`]);
    expect((await api.file(alice.cookie, shared.url)).status).toBe(200);
    expect((await api.list(alice.cookie, task._id))[0]!.by.fullName).toBe(mia.user.fullName);
    expect(mine._id).not.toBe(shared._id);
  });

  it('a file stored without its row (a crash between the two) is swept once its hour has passed', async () => {
    await t.app.attachmentsRepository.sweepLater(['attachments/orphan'], new Date(t.clock.now().getTime() + HOUR).toISOString());
    const { Readable } = await import('node:stream');
    await t.app.files.put('attachments/orphan', Readable.from([Buffer.from('half-done')]));
    expect(await api.sweep()).toBe(0);
    t.clock.advance(HOUR - SECOND);
    expect(await api.sweep()).toBe(0);
    t.clock.advance(2 * SECOND);
    expect(await api.sweep()).toBe(1);
    expect(await api.storedKeys()).toEqual([]);
  });

  it.runIf(isPostgres)('two uploads racing past the board quota: one wins, the other gets 409, nothing of it is left', async () => {
    await t.rebuild({ BOARD_STORAGE_MB: '1' });
    const { alice, mia, board } = await scene();
    const one = await createTask(t, alice.cookie, { boardId: board.id });
    const two = await createTask(t, mia.cookie, { boardId: board.id });
    const results = await Promise.all([
      api.upload(alice.cookie, one._id, 'one.bin', Buffer.alloc(600_000, 1)),
      api.upload(mia.cookie, two._id, 'two.bin', Buffer.alloc(600_000, 2)),
    ]);
    expect(results.map((r) => r.status).toSorted()).toEqual([201, 409]);
    expect(await api.storedKeys()).toHaveLength(1);
    expect(await api.sweepsLeft()).toBe(0);
  });
});
