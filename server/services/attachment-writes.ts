import { pipeline, Readable, Transform } from 'node:stream';
import fp from 'fastify-plugin';
import pLimit from 'p-limit';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { canChangeTask, canDeleteAttachment } from '#shared/rights.ts';
import type { Attachment } from '#shared/schemas/attachments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { HOUR } from '../clock.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError, validationFailed } from '../errors.ts';
import { detectType, hasThumbnail, makeThumbnail, TYPE_HEAD_BYTES } from '../files/inspect.ts';
import { nextTurn, paced } from '../files/upload-pacing.ts';
import type { NewEvent } from '../repositories/events-repository.ts';
import { toAttachmentJson } from '../repositories/attachments-repository.ts';
import type { Actor } from './actor.ts';
import { existingId, taskNotFound } from './not-found.ts';
import { activityEntry } from './task-activity.ts';
import { sightOf } from './task-change.ts';
import { taskConflict, viewerCannotChange } from './task-writes.ts';

/**
 * A file as it arrives: the name it was sent with, and its bytes, read once. The stream's chunks
 * are handed over: once stored, their memory may be freed (files/release-chunk.ts), so nothing
 * else may read them afterwards.
 */
export interface IncomingFile {
  name: string;
  stream: Readable;
}

export interface AttachmentWrites {
  /**
   * Stores `file` on task `taskId` for `actor`, who must be allowed to edit the task (404 when
   * they cannot see it, 403 when they may not change it). Its bytes stream to storage; its type
   * is read from them; an image up to 50 megapixels gets a thumbnail. Refused with nothing left
   * behind: 413 FILE_TOO_LARGE past ATTACHMENT_MAX_MB, 409 LIMIT_REACHED at 100 files on the
   * task, 409 QUOTA_EXCEEDED when the board's files would pass BOARD_STORAGE_MB (checked in the
   * transaction that writes the row, under the board's lock).
   */
  add(actor: Actor, taskId: string, file: IncomingFile): Promise<Attachment>;
  /**
   * What `add` checks before it stores a byte, for an upload that arrives later (a resumable
   * upload's creation): 404 / 403 as `add`, 409 LIMIT_REACHED for a full task, 409
   * QUOTA_EXCEEDED when `size` bytes would not fit the board now (`add` checks again).
   */
  checkMayAdd(actor: Actor, taskId: string, size: number): Promise<void>;
  /** Deletes an attachment (its uploader, or an admin of the board; 403 otherwise); its files go within seconds. */
  remove(actor: Actor, taskId: string, attachmentId: string): Promise<void>;
  /**
   * Makes one of the task's images (an attachment with a thumbnail) its cover, or clears it
   * (null); anything else is 400 on `coverId`. `expectedVersion`: 409 CONFLICT at another.
   */
  setCover(actor: Actor, taskId: string, coverId: string | null, expectedVersion: number | undefined): Promise<Task>;
  /**
   * What `setCover` refuses with 400, checked before a change of other fields is written with the
   * cover (a request is all or nothing); `setCover` checks again under the task's lock.
   */
  checkCover(taskId: string, coverId: string | null): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    attachmentWrites: AttachmentWrites;
  }
}

/**
 * How many uploads of this process write their row at once. Each such write holds a database
 * connection while it waits for the board's lock and for its commit, and uploads finishing
 * together (20 at a time on one board) took the whole pool (10 connections on PostgreSQL): every
 * other request waited for a connection behind them. The board's lock in the database still
 * orders the writes, and checks the quota, across instances; this only leaves the pool to the
 * other requests (docs/decisions/167-upload-chunks-freed-once-written.md).
 */
const ROW_WRITES_AT_ONCE = 2;

/**
 * Thumbnails a process makes at once (the others wait their turn). sharp decodes on libuv's
 * thread pool (4 threads), which the disk store's writes of every other upload also use, and an
 * image from S3 is held whole while its thumbnail is made: so many images uploaded together
 * neither stall the other uploads nor hold all their bytes at once.
 */
const THUMBNAILS_AT_ONCE = 2;

const attachmentNotFound = () => new AppError(404, 'NOT_FOUND', ATTACHMENT_MESSAGES.attachmentNotFound);
const person = (actor: Actor) => ({ fullName: actor.fullName, email: actor.email });
const MAX_NAME_LENGTH = 255;

/**
 * The name a file is shown and downloaded under: the last part of what was sent (no folders),
 * without control characters, at most 255 characters, "file" when nothing is left.
 */
export function fileNameOf(sent: string): string {
  const base = sent.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').toWellFormed().trim();
  // Cut by code points, so a letter outside the BMP is never split in two.
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points are the unit here
  return clean === '' ? 'file' : [...clean].slice(0, MAX_NAME_LENGTH).join('');
}

/**
 * Passes a file's bytes through, counting them: fails with 413 once they pass `maxBytes`, and
 * keeps the first TYPE_HEAD_BYTES for the type check.
 */
function meter(maxBytes: number) {
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new AppError(413, 'FILE_TOO_LARGE', ATTACHMENT_MESSAGES.fileTooLarge(maxBytes)));
        return;
      }
      if (headLength < TYPE_HEAD_BYTES) {
        // A copy: the chunk itself is handed over to the store, which frees it once written.
        const part = Buffer.from(chunk.subarray(0, TYPE_HEAD_BYTES - headLength));
        head.push(part);
        headLength += part.length;
      }
      callback(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(head), size: () => size };
}

/**
 * Files on tasks. An upload stores the file first (named by the attachment's id, so nothing a
 * user sends becomes a path), then writes its row as a task write (services/task-writes.ts):
 * the row, the task's count and version, its activity and the `attachment.created` and
 * `task.updated` events commit together or not at all. Before the first byte, the upload's
 * keys are written to `file_sweeps` due in an hour, and the row's transaction removes them: a
 * refusal deletes the files at once, and a crash between the file and its row leaves a sweep
 * that comes due (plugins/files.ts). A deleted attachment's keys are swept by the
 * table's trigger, whatever deleted it.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.attachmentsRepository;
    const writes = fastify.taskWrites;
    const limits = fastify.config.attachments;
    const rowWrites = pLimit(ROW_WRITES_AT_ONCE);
    const thumbnails = pLimit(THUMBNAILS_AT_ONCE);
    /** The thumbnail of the image stored at `key`: decoded from the file on disk where there is one. */
    const thumbnailOf = (key: string) =>
      thumbnails(async () => {
        const path = fastify.files.localPath(key);
        if (path !== undefined) return makeThumbnail(path);
        const source = await fastify.files.read(key);
        return source === undefined ? undefined : makeThumbnail(source.body);
      });
    /** The cover `coverId` makes: one of the task's images (an attachment with a thumbnail), null for none; else 400 on `coverId`. */
    const coverOf = async (taskId: string, coverId: string | null, ex: Executor): Promise<Task['cover']> => {
      if (coverId === null) return null;
      const image = /^[\w-]+$/.test(coverId) ? await repo.findInTask(taskId, coverId, ex) : undefined;
      const { thumbnailUrl, width, height } = image?.attachment ?? {};
      if (thumbnailUrl === undefined || width === undefined || height === undefined) {
        throw validationFailed([{ field: 'coverId', message: ATTACHMENT_MESSAGES.coverNotImage }]);
      }
      return { attachmentId: coverId, thumbnailUrl, width, height };
    };

    /** A change of the task row that only the attachment writes make: its count or cover, with its version and events. */
    const taskChange = (before: Task, after: Task, changes: Record<string, unknown>, actor: Actor, now: Date, event: NewEvent, activity?: { from: string | null; to: string | null }) => {
      const parts = writes.partsFor({ kind: 'updated', before, after, actor, now });
      parts.events.unshift(event);
      if (activity !== undefined) parts.activity.push(activityEntry(before._id, 'updated', actor, now, JSON.stringify({ attachment: activity })));
      return { kind: 'update' as const, before, changes: { ...changes, updatedAt: after.updatedAt }, parts };
    };

    /**
     * Whether the actor may add files to the task: 404 / 403 before a byte is stored, and 409 when
     * it is full; with a `size` known in advance, 409 too when the board has no room for it.
     */
    async function checkMayAdd(actor: Actor, taskId: string, size?: number): Promise<void> {
      const found = await fastify.tasksRepository.findForWrite(taskId, actor, undefined, false, fastify.db);
      if (found === undefined) throw taskNotFound();
      if (!canChangeTask(found.role, found.task.assignee === actor.email)) throw viewerCannotChange();
      await checkRoom(found.task, size, fastify.db);
    }

    /** 409 when the task has its 100 files, or (with a size) when the board has no room for `size` more bytes. */
    async function checkRoom(task: Task, size: number | undefined, ex: Executor): Promise<void> {
      if (task.attachmentCount >= limits.perTask) throw new AppError(409, 'LIMIT_REACHED', ATTACHMENT_MESSAGES.attachmentsFull);
      if (size !== undefined && !(await repo.fitsBoard(task.boardId, size, limits.boardQuotaBytes, ex))) {
        throw new AppError(409, 'QUOTA_EXCEEDED', ATTACHMENT_MESSAGES.boardStorageFull);
      }
    }

    /** Deletes what an upload stored; a failure is left to the sweep (its keys are still due). */
    async function discard(keys: readonly string[]): Promise<void> {
      try {
        for (const key of keys) await fastify.files.delete(key);
        await repo.keep(keys);
      } catch (error) {
        fastify.log.warn({ err: error, keys }, 'Could not delete the files of a refused upload; the sweep will');
      }
    }

    const service: AttachmentWrites = {
      async checkMayAdd(actor, taskId, size) {
        await checkMayAdd(actor, existingId(taskId), size);
      },

      async add(actor, taskId, file) {
        existingId(taskId);
        await checkMayAdd(actor, taskId);
        const id = newId();
        const storageKey = `attachments/${id}`;
        const thumbnailKey = `thumbnails/${id}.webp`;
        const keys = [storageKey, thumbnailKey];
        // Each of the upload's database writes starts in a turn of its own (files/upload-pacing.ts).
        await nextTurn();
        await repo.sweepLater(keys, new Date(clock.now().getTime() + HOUR).toISOString());
        // An error of the sender's stream (a cut connection, a malformed body) is the upload's fault, not ours.
        const sender = { failed: false };
        try {
          const bytes = meter(limits.maxFileBytes);
          file.stream.once('error', () => {
            sender.failed = true;
          });
          // Connected at once, with both streams' errors handled from the start: the bytes flow (and
          // may pass the limit) before the store starts reading. The store's read sees the error.
          // The bytes take turns with the process's other requests (files/upload-pacing.ts).
          const body = paced(pipeline(file.stream, bytes.stream, () => undefined));
          // The chunks are the sender's bytes, read by nothing else: the store may free each once stored.
          await fastify.files.put(storageKey, body, { handOver: true });
          const size = bytes.size();
          const type = await detectType(bytes.head());
          let image: { width: number; height: number } | undefined;
          if (hasThumbnail(type)) {
            const thumbnail = await thumbnailOf(storageKey);
            if (thumbnail !== undefined) {
              await fastify.files.put(thumbnailKey, Readable.from([thumbnail.webp]), { contentType: 'image/webp' });
              image = { width: thumbnail.width, height: thumbnail.height };
            }
          }
          const now = clock.now();
          const at = now.toISOString();
          const row = {
            id,
            taskId,
            name: fileNameOf(file.name),
            size,
            type,
            width: image?.width ?? null,
            height: image?.height ?? null,
            storageKey,
            thumbnailKey: image === undefined ? null : thumbnailKey,
            uploaderId: actor.userId,
            uploaderName: actor.fullName,
            uploaderEmail: actor.email,
            createdAt: at,
          };
          const attachment = toAttachmentJson(row);
          return await rowWrites(async () => {
            await nextTurn();
            return writes.change<Attachment>(actor, taskId, { rights: 'edit', lockFirst: true }, async ({ task: before }, ex) => {
              await repo.lockBoard(before.boardId, ex);
              await checkRoom(before, size, ex);
              await repo.insert(row, ex);
              await repo.keep(keys, ex);
              const after: Task = { ...before, attachmentCount: before.attachmentCount + 1, updatedAt: at, version: before.version + 1 };
              const event: NewEvent = { type: 'attachment.created', subjectId: before._id, ...sightOf(before), data: { taskId: before._id, attachment, by: person(actor) }, at };
              const { parts, ...target } = taskChange(before, after, { attachmentCount: after.attachmentCount }, actor, now, event, { from: null, to: row.name });
              return { target, parts, answer: () => attachment };
            });
          });
        } catch (error) {
          await discard(keys);
          if (sender.failed && !(error instanceof AppError) && (error as { statusCode?: number }).statusCode === undefined) {
            throw new AppError(400, 'UPLOAD_INCOMPLETE', ATTACHMENT_MESSAGES.uploadCutOff);
          }
          throw error;
        }
      },

      remove(actor, taskId, attachmentId) {
        return writes.change<undefined>(actor, existingId(taskId), { rights: 'see', lockFirst: true }, async ({ task: before, role }, ex) => {
          const stored = await repo.findInTask(before._id, existingId(attachmentId, attachmentNotFound), ex);
          if (stored === undefined) throw attachmentNotFound();
          if (!canDeleteAttachment(role, stored.uploaderId === actor.userId)) throw new AppError(403, 'FORBIDDEN', ATTACHMENT_MESSAGES.notAttachmentRemover);
          await repo.delete(stored.attachment._id, ex);
          const now = clock.now();
          const at = now.toISOString();
          const wasCover = before.cover?.attachmentId === stored.attachment._id;
          const after: Task = { ...before, attachmentCount: before.attachmentCount - 1, ...(wasCover ? { cover: null } : {}), updatedAt: at, version: before.version + 1 };
          const changes = { attachmentCount: after.attachmentCount, ...(wasCover ? { coverId: null, coverWidth: null, coverHeight: null } : {}) };
          const event: NewEvent = { type: 'attachment.deleted', subjectId: before._id, ...sightOf(before), data: { taskId: before._id, attachment: { _id: stored.attachment._id }, by: person(actor) }, at };
          const { parts, ...target } = taskChange(before, after, changes, actor, now, event, { from: stored.attachment.name, to: null });
          return { target, parts, answer: () => undefined };
        });
      },

      async checkCover(taskId, coverId) {
        await coverOf(existingId(taskId), coverId, fastify.db);
      },

      setCover(actor, taskId, coverId, expectedVersion) {
        return writes.change<Task>(actor, existingId(taskId), { rights: 'edit', lockFirst: true }, async ({ task: before }, ex) => {
          if (expectedVersion !== undefined && expectedVersion !== before.version) {
            throw taskConflict(before);
          }
          const cover = await coverOf(before._id, coverId, ex);
          if ((before.cover?.attachmentId ?? null) === coverId) return { answer: before };
          const now = clock.now();
          const at = now.toISOString();
          const after: Task = { ...before, cover, updatedAt: at, version: before.version + 1 };
          const parts = writes.partsFor({ kind: 'updated', before, after, actor, now });
          const changes = { coverId: cover?.attachmentId ?? null, coverWidth: cover?.width ?? null, coverHeight: cover?.height ?? null, updatedAt: at };
          return { target: { kind: 'update', before, changes }, parts, answer: (result) => result.task ?? after };
        });
      },
    };
    fastify.decorate('attachmentWrites', service);
    done();
  },
  { name: 'attachment-writes', dependencies: ['repositories', 'task-writes', 'files'] },
);
