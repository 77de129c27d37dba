import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { parse as parseRange } from 'range-parser';
import { Type } from 'typebox';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { INLINE_IMAGE_TYPES } from '#shared/schemas/attachments.ts';
import { AppError } from '../errors.ts';
import type { ByteRange } from '../files/file-store.ts';
import { actorOf } from '../services/actor.ts';
import { existingId } from '../services/not-found.ts';
import { errorResponses, sessionSecurity } from './schemas.ts';

const attachmentNotFound = () => new AppError(404, 'NOT_FOUND', ATTACHMENT_MESSAGES.attachmentNotFound);
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * Headers of every file answer: the browser must take the type as sent and never run anything
 * in it — `sandbox` makes even a page opened from here a unique origin without scripts, so an
 * uploaded SVG or HTML file cannot act as our origin.
 */
const FILE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'accept-ranges': 'bytes',
  // The bytes of an id never change; the answer is the signed-in person's (rights can change, so not for long).
  'cache-control': 'private, max-age=3600',
};
/** How long a redirect to an S3 store's signed URL is valid. */
const SIGNED_URL_SECONDS = 300;

/**
 * The files of attachments, to whoever sees their task (404 for anyone else, as for a missing
 * one). PNG, JPEG, GIF, WebP and AVIF are shown inline; everything else — SVG and HTML included —
 * is a download under its own name (RFC 6266). Range requests are answered with 206. With S3,
 * a download is a redirect to a signed URL valid 5 minutes, so the bytes do not pass through
 * the server; images are served by the server (they are small, and come with our headers).
 */
const attachmentFiles: FastifyPluginAsyncTypebox = (fastify) => {
  const repo = fastify.attachmentsRepository;
  const store = fastify.files;

  fastify.addHook('onRequest', fastify.authenticate);

  /**
   * Sends the file at `key` with the headers of a file answer: the asked range of it (206) when
   * its size is known beforehand (an attachment's row has it), else the whole file.
   */
  async function sendFile(reply: FastifyReply, key: string, file: { size?: number; type: string; disposition: string }, range: string | undefined) {
    const headers = { ...FILE_HEADERS, 'content-type': file.type, 'content-disposition': file.disposition };
    let part: ByteRange | undefined;
    if (range !== undefined && file.size !== undefined) {
      // One byte range is answered; a malformed header, another unit or several ranges get the
      // whole file (RFC 9110 lets a server ignore Range); a range past the end is 416.
      const { code, type, ranges } = parseRange(file.size, range);
      if (type === 'bytes' && ranges.length === 0 && (code & 2) !== 0) {
        return reply.code(416).headers({ ...headers, 'content-range': `bytes */${file.size}` }).send(null);
      }
      const only = ranges.length === 1 ? ranges[0] : undefined;
      if (type === 'bytes' && only !== undefined) part = { start: only.start, end: only.end };
    }
    const stored = await store.read(key, part);
    if (stored === undefined) throw attachmentNotFound();
    reply.headers(headers);
    if (part === undefined) return reply.header('content-length', stored.size).send(stored.body);
    return reply
      .code(206)
      .headers({ 'content-length': part.end - part.start + 1, 'content-range': `bytes ${part.start}-${part.end}/${stored.size}` })
      .send(stored.body);
  }

  fastify.get(
    '/attachments/:id',
    {
      schema: {
        tags: ['attachments'],
        summary: "An attachment's file",
        description:
          'To anyone who sees its task (404 otherwise). PNG, JPEG, GIF, WebP and AVIF inline; every other type as a download with its name. ' +
          'Answers `Range` with 206. Every answer has `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. ' +
          'With S3 storage, a download may be a 302 to a signed URL valid 5 minutes.',
        security: sessionSecurity,
        params: Params,
        produces: ['application/octet-stream'],
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const found = await repo.findVisible(existingId(request.params.id, attachmentNotFound), actorOf(request));
      if (found === undefined) throw attachmentNotFound();
      const { name, type } = found.attachment;
      const inline = (INLINE_IMAGE_TYPES as readonly string[]).includes(type);
      const disposition = contentDisposition(name, { type: inline ? 'inline' : 'attachment' });
      if (!inline) {
        const signed = await store.signedUrl(found.storageKey, { contentType: type, contentDisposition: disposition }, SIGNED_URL_SECONDS);
        if (signed !== undefined) return reply.header('cache-control', 'no-store').redirect(signed, 302);
      }
      return sendFile(reply, found.storageKey, { size: found.attachment.size, type, disposition }, request.headers.range);
    },
  );

  fastify.get(
    '/attachments/:id/thumbnail',
    {
      schema: {
        tags: ['attachments'],
        summary: "An image attachment's thumbnail (WebP, at most 480 px wide)",
        description: 'To anyone who sees its task; 404 otherwise, and for a file without a thumbnail.',
        security: sessionSecurity,
        params: Params,
        produces: ['image/webp'],
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const found = await repo.findVisible(existingId(request.params.id, attachmentNotFound), actorOf(request));
      if (found?.thumbnailKey == null) throw attachmentNotFound();
      return sendFile(reply, found.thumbnailKey, { type: 'image/webp', disposition: 'inline' }, undefined);
    },
  );

  return Promise.resolve();
};

export default attachmentFiles;
