import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { AttachmentEnvelope, AttachmentListEnvelope, AttachmentParams } from '#shared/schemas/attachments.ts';
import { TaskParams } from '#shared/schemas/tasks.ts';
import { AppError } from '../../errors.ts';
import { actorOf } from '../../services/actor.ts';
import { existingId, taskNotFound } from '../../services/not-found.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/** What a multipart body may carry besides the file itself: its boundaries and part headers. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * A file's name as a browser writes it in `multipart/form-data`: the HTML standard escapes `"` as
 * `%22` and line breaks as `%0A`/`%0D` (measured in Chromium: `Budget "final".xlsx` arrives as
 * `Budget %22final%22.xlsx`), so they are turned back; fileNameOf then drops the line breaks with
 * the other control characters. A name that held "%22" itself cannot be told from one that held a
 * quote: the quote, by far the commoner, wins.
 */
export const formFileName = (sent: string): string => sent.replace(/%22|%0A|%0D/g, decodeURIComponent);

/**
 * A task's files: the list, an upload (`multipart/form-data`, one file in the field `file`,
 * streamed to storage by services/attachment-writes.ts) and a deletion. Multipart bodies are
 * accepted in this scope only; the Origin check applies to them as to every request
 * (plugins/security.ts). The files themselves are served by routes/attachments.ts.
 */
const attachments: FastifyPluginAsyncTypebox = async (fastify) => {
  const repo = fastify.attachmentsRepository;
  const writes = fastify.attachmentWrites;
  const { maxFileBytes } = fastify.config.attachments;
  const tooLarge = () => new AppError(413, 'FILE_TOO_LARGE', ATTACHMENT_MESSAGES.fileTooLarge(maxFileBytes));

  fastify.addHook('onRequest', fastify.authenticate);
  // One file part, nothing else; the size is enforced on the bytes as they stream (a part one
  // byte past the limit is what tells a file at the limit from one over it).
  await fastify.register(multipart, { limits: { files: 1, fields: 0, parts: 1, fileSize: maxFileBytes + 1, headerPairs: 50 } });

  fastify.get(
    '/tasks/:id/attachments',
    {
      schema: {
        tags: ['attachments'],
        summary: "A task's files, newest first",
        description: 'Files of a task I can see; 404 NOT_FOUND for a task I cannot see.',
        security: sessionSecurity,
        params: TaskParams,
        response: { 200: serializable(AttachmentListEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const task = await fastify.tasksRepository.findVisible(existingId(request.params.id), actorOf(request));
      if (task === undefined) throw taskNotFound();
      return { status: 'success', data: { attachments: await repo.listForTask(task._id) } } as const;
    },
  );

  fastify.post(
    '/tasks/:id/attachments',
    {
      schema: {
        tags: ['attachments'],
        summary: 'Add a file to a task',
        description:
          '`multipart/form-data` with one file in the field `file`; 201 with the attachment. Anyone who may edit the task adds files ' +
          '(403 otherwise, 404 for a task I cannot see). The file streams to storage; its `type` is read from its bytes, and an image up to ' +
          '50 megapixels gets a thumbnail. 413 FILE_TOO_LARGE past ATTACHMENT_MAX_MB; 409 LIMIT_REACHED at 100 files on the task; ' +
          "409 QUOTA_EXCEEDED when the board's files would pass BOARD_STORAGE_MB. A refused or cut-off upload leaves nothing behind. " +
          'Large files can also be sent resumably with tus 1.0 (https://tus.io/protocols/resumable-upload) at /api/uploads: ' +
          '`POST /api/uploads` with `Upload-Length` and `Upload-Metadata` keys `taskId` and `filename` (the same refusals, before a byte ' +
          'is stored; no deferred length) → 201 with a relative `Location`; `HEAD` it for the offset, `PATCH` chunks as ' +
          '`application/offset+octet-stream`, `DELETE` to cancel. The PATCH that completes it answers 200 with this route\'s body and ' +
          'the header `Upload-Attachment-Id`. An upload is its creator\'s alone (404 to anyone else) and is removed 24 hours after it began ' +
          'if unfinished; refusals are the same JSON envelope.',
        security: sessionSecurity,
        params: TaskParams,
        consumes: ['multipart/form-data'],
        response: { 201: serializable(AttachmentEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const taskId = existingId(request.params.id);
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge();
      if (!request.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', ATTACHMENT_MESSAGES.noFileSent);
      const part = await request.file();
      if (part?.fieldname !== 'file') throw new AppError(400, 'VALIDATION_FAILED', ATTACHMENT_MESSAGES.noFileSent);
      const attachment = await writes.add(actorOf(request), taskId, { name: formFileName(part.filename), stream: part.file });
      return reply.code(201).send({ status: 'success', message: translateFor(request, ATTACHMENT_MESSAGES.attachmentAdded), data: { attachment } });
    },
  );

  fastify.delete(
    '/tasks/:id/attachments/:attachmentId',
    {
      schema: {
        tags: ['attachments'],
        summary: 'Delete a file: 204 with an empty body',
        description: "The file's uploader and the board's admins may (403 otherwise); its bytes and thumbnail are deleted within seconds.",
        security: sessionSecurity,
        params: AttachmentParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await writes.remove(actorOf(request), request.params.id, request.params.attachmentId);
      return reply.code(204).send(null);
    },
  );
};

export default attachments;
