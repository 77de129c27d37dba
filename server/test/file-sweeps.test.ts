import { mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { createDiskStore } from '../files/disk-store.ts';
import { checkFiles, SWEEP_LEASE_MS, sweepDueFiles } from '../files/sweeps.ts';
import { insertAttachment } from './files-support.ts';
import { useTestApp } from './helpers.ts';

/** The sweep of files nothing points at, and the check of rows against files, on each database with a real disk store. */
const t = useTestApp();
const dir = mkdtempSync(join(tmpdir(), 'taskwise-sweeps-'));
const store = createDiskStore(dir);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const db = () => t.app.db;
const put = (key: string) => store.put(key, Readable.from([Buffer.from(key)]));
const exists = async (key: string) => (await store.read(key)) !== undefined;
const sweepRows = async (keys: string[]) =>
  (await db().selectFrom('fileSweeps').selectAll().where('storageKey', 'in', keys).orderBy('storageKey').execute()).map((row) => [row.storageKey, row.dueAt]);

async function scheduled(due: Record<string, string>, withFiles = true): Promise<string[]> {
  const keys = Object.keys(due);
  if (withFiles) for (const key of keys) await put(key);
  await db().insertInto('fileSweeps').values(keys.map((key) => ({ storageKey: key, dueAt: due[key]! }))).execute();
  return keys;
}

const attachment = (storageKey: string, thumbnailKey: string | null) => insertAttachment(t, storageKey, thumbnailKey);

const NOW = '2031-03-10T09:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();

describe('sweepDueFiles', () => {
  it('deletes the files of due rows and then the rows, keeps rows not yet due, and a file already gone is fine', async () => {
    const id = newId();
    const due = await scheduled({ [`attachments/${id}-now`]: '', [`attachments/${id}-past`]: later(-1000), [`attachments/${id}-exactly`]: NOW });
    const gone = await scheduled({ [`attachments/${id}-gone`]: '' }, false);
    const notDue = await scheduled({ [`attachments/${id}-later`]: later(1000) });

    expect(await sweepDueFiles(db(), store, NOW)).toBe(4);
    expect(await sweepRows([...due, ...gone, ...notDue])).toEqual([[notDue[0], later(1000)]]);
    for (const key of due) expect(await exists(key), key).toBe(false);
    expect(await exists(notDue[0]!)).toBe(true);
    expect(await sweepDueFiles(db(), store, NOW)).toBe(0);
    expect(await sweepDueFiles(db(), store, later(1000))).toBe(1);
    expect(await exists(notDue[0]!)).toBe(false);
  });

  it('sweeps at most `limit` rows a call, and two sweeps at once take each key once', async () => {
    const keys = await scheduled(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`attachments/${newId()}-${i}`, ''])));
    expect(await sweepDueFiles(db(), store, NOW, 10)).toBe(10);
    const counts = await Promise.all([sweepDueFiles(db(), store, NOW, 15), sweepDueFiles(db(), store, NOW, 15)]);
    expect(counts[0] + counts[1]).toBe(20);
    expect(await sweepRows(keys)).toEqual([]);
  });

  it('a file that cannot be deleted keeps its row until its lease runs out; the others are swept', async () => {
    const [blocked, fine] = await scheduled({ [`attachments/${newId()}-blocked`]: '', [`attachments/${newId()}-fine`]: '' }, false);
    await put(fine!);
    // A directory where the file would be: unlink fails (EISDIR on Linux, EPERM elsewhere).
    mkdirSync(join(dir, blocked!), { recursive: true });
    await expect(sweepDueFiles(db(), store, NOW)).rejects.toThrow();
    expect(await exists(fine!)).toBe(false);
    const leaseEnd = later(SWEEP_LEASE_MS);
    expect(await sweepRows([blocked!, fine!])).toEqual([[blocked, leaseEnd]]);

    rmdirSync(join(dir, blocked!));
    expect(await sweepDueFiles(db(), store, later(SWEEP_LEASE_MS - 1))).toBe(0);
    expect(await sweepDueFiles(db(), store, leaseEnd)).toBe(1);
    expect(await sweepRows([blocked!])).toEqual([]);
  });
});

describe('deleting an attachment', () => {
  it('adds its file and thumbnail to file_sweeps, due at once, whether the row or its task is deleted', async () => {
    const id = newId();
    const one = await attachment(`attachments/${id}-a`, `thumbnails/${id}-a.webp`);
    await db().deleteFrom('attachments').where('id', '=', one.id).execute();
    expect(await sweepRows([`attachments/${id}-a`, `thumbnails/${id}-a.webp`])).toEqual([
      [`attachments/${id}-a`, ''],
      [`thumbnails/${id}-a.webp`, ''],
    ]);

    // Without a thumbnail, through the task's deletion (the cascade), over a row that was due later.
    await scheduled({ [`attachments/${id}-b`]: later(60_000) }, false);
    const two = await attachment(`attachments/${id}-b`, null);
    expect((await t.request('DELETE', `/api/tasks/${two.taskId}`, { cookie: two.cookie })).status).toBe(204);
    expect(await db().selectFrom('attachments').select('id').where('id', '=', two.id).execute()).toEqual([]);
    expect(await sweepRows([`attachments/${id}-b`])).toEqual([[`attachments/${id}-b`, '']]);
  });
});

describe('checkFiles', () => {
  it('finds rows whose file is missing and files no row names; keys waiting for a sweep count as neither', async () => {
    await sweepDueFiles(db(), store, later(SWEEP_LEASE_MS * 10));
    const before = await checkFiles(db(), store);
    const id = newId();
    const key = (name: string) => `attachments/${id}-${name}`;

    // Whole: a row with its file and thumbnail.
    await attachment(key('whole'), `thumbnails/${id}-whole.webp`);
    await put(key('whole'));
    await put(`thumbnails/${id}-whole.webp`);
    // A row without its file, and one without its thumbnail.
    await attachment(key('lost'), null);
    await attachment(key('thumbless'), `thumbnails/${id}-thumbless.webp`);
    await put(key('thumbless'));
    // A file nothing names.
    await put(key('stray'));
    // An upload in flight (its sweep row written before the first byte) and a deletion not yet swept.
    await scheduled({ [key('in-flight')]: later(3_600_000) });
    const deleted = await attachment(key('deleted'), null);
    await put(key('deleted'));
    await db().deleteFrom('attachments').where('id', '=', deleted.id).execute();
    // A row whose key also waits for a sweep (its file already removed).
    await attachment(key('swept-row'), null);
    await scheduled({ [key('swept-row')]: '' }, false);

    const found = await checkFiles(db(), store);
    expect(found.rowsWithoutFile.filter((k) => !before.rowsWithoutFile.includes(k))).toEqual([key('lost'), `thumbnails/${id}-thumbless.webp`]);
    expect(found.filesWithoutRow.filter((k) => !before.filesWithoutRow.includes(k))).toEqual([key('stray')]);
  });
});
