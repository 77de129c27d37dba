import { randomBytes } from 'node:crypto';
import type { Attachment } from '#shared/schemas/attachments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { sweepDueFiles } from '../files/sweeps.ts';
import type { TestApp } from './helpers.ts';

/** A `multipart/form-data` body with one file part, as a browser's FormData sends it. */
export function multipartBody(fileName: string, bytes: Buffer, options: { field?: string; type?: string } = {}) {
  const boundary = `----taskwise${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${fileName}"\r\n` +
      `Content-Type: ${options.type ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Upload {
  status: number;
  body: string;
  json: { code?: string; message?: string; data?: { attachment: Attachment } };
}

/** Attachment calls through the app (`inject`: the whole request pipeline, no socket). */
export function attachmentsApi(t: TestApp) {
  return {
    async upload(cookie: string, taskId: string, fileName: string, bytes: Buffer, options: { field?: string; type?: string } = {}): Promise<Upload> {
      const { payload, contentType } = multipartBody(fileName, bytes, options);
      const res = await t.app.inject({ method: 'POST', url: `/api/tasks/${taskId}/attachments`, headers: { cookie, 'content-type': contentType }, payload });
      return { status: res.statusCode, body: res.body, json: JSON.parse(res.body) as Upload['json'] };
    },
    async list(cookie: string, taskId: string): Promise<Attachment[]> {
      const res = await t.request('GET', `/api/tasks/${taskId}/attachments`, { cookie });
      return (res.json as unknown as { data: { attachments: Attachment[] } }).data.attachments;
    },
    remove: (cookie: string, taskId: string, id: string) => t.request('DELETE', `/api/tasks/${taskId}/attachments/${id}`, { cookie }),
    async file(cookie: string, url: string, headers: Record<string, string> = {}) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
      return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
    },
    async task(cookie: string, taskId: string): Promise<Task> {
      return (await t.request('GET', `/api/tasks/${taskId}`, { cookie })).json.data.task;
    },
    /** Every key in the app's file store. */
    async storedKeys(): Promise<string[]> {
      const keys: string[] = [];
      for await (const { key } of t.app.files.list()) keys.push(key);
      return keys.toSorted();
    },
    /** Runs the sweeper once now (as its timer would), returning how many files it deleted. */
    sweep: () => sweepDueFiles(t.app.db, t.app.files, t.clock.now().toISOString()),
    async sweepsLeft(): Promise<number> {
      const row = await t.app.db.selectFrom('fileSweeps').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
