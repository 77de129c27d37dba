import { Server, type Upload } from '@tus/server';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerRequest } from 'srvx';
import { NodeRequest } from 'srvx/node';
import type { Readable } from 'node:stream';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../errors.ts';
import { actorOf, type Actor } from '../services/actor.ts';
import { requestLanguage } from '../i18n/request-language.ts';
import { translate, type ReaderLanguage } from '../i18n/translate.ts';

/** Where the id of the attachment a finished upload became is told (besides the body). */
const ATTACHMENT_ID_HEADER = 'Upload-Attachment-Id';

/** The request as @tus/server sees it: a web Request over the Node one. */
type TusRequest = ServerRequest;

const uploadNotFound = () => new AppError(404, 'NOT_FOUND', ATTACHMENT_MESSAGES.uploadNotFound);

/**
 * A refusal of @tus/server's own (`{status_code, body}`: a protocol error, a missing upload, an
 * offset that does not match) as our error; a failure of ours or the store's stays an error (500).
 */
function refusalOf(error: unknown, maxFileBytes: number): Error {
  if (error instanceof AppError) return error;
  const status = (error as { status_code?: unknown }).status_code;
  if (typeof status !== 'number' || status >= 500) return error instanceof Error ? error : new Error(String((error as { body?: unknown }).body));
  if (status === 404 || status === 410) return uploadNotFound();
  if (status === 409) return new AppError(409, 'CONFLICT', ATTACHMENT_MESSAGES.uploadOffsetConflict);
  if (status === 413) return new AppError(413, 'FILE_TOO_LARGE', ATTACHMENT_MESSAGES.fileTooLarge(maxFileBytes));
  if (status === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', ATTACHMENT_MESSAGES.uploadRequestInvalid);
  return new AppError(status, 'VALIDATION_FAILED', ATTACHMENT_MESSAGES.uploadRequestInvalid);
}

/**
 * Resumable uploads of attachments with the tus 1.0 protocol (https://tus.io/protocols/resumable-upload),
 * served by @tus/server: `POST /api/uploads` creates one (`Upload-Length`, `Upload-Metadata`
 * with `taskId` and `filename`), `HEAD /api/uploads/:id` tells its offset, `PATCH` appends
 * bytes (`application/offset+octet-stream`), `DELETE` cancels it. The bytes wait beside the
 * files (files/partial-uploads.ts); the request that completes an upload hands them to
 * `attachmentWrites.add` — the checks, type, thumbnail, row and events of any upload — and
 * answers 200 with the attachment (`Upload-Attachment-Id` names it), then the upload is gone.
 *
 * Every request is signed in (a session or an API token) and every answer but a 2xx one is
 * our JSend envelope. An upload's id begins with its creator's user id, so anyone else's
 * upload answers 404 whoever asks. The creation checks what a multipart upload would before a
 * byte is stored; the size is also tus's `maxSize`. These bodies are accepted in this scope
 * only; the Origin check applies as everywhere, and tus's CORS headers name only CORS_ORIGINS.
 */
const uploads: FastifyPluginCallback = (fastify, _opts, done) => {
  const { maxFileBytes } = fastify.config.attachments;
  const writes = fastify.attachmentWrites;
  const partial = fastify.partialUploads;
  const corsOrigins = new Set(fastify.config.corsOrigins);

  /** The signed-in person, the reader's language and the refusal of each request handed to tus. */
  const actors = new WeakMap<TusRequest, Actor>();
  const languages = new WeakMap<TusRequest, ReaderLanguage>();
  const refusals = new WeakMap<TusRequest, Error>();
  const actorOfTus = (req: TusRequest): Actor => {
    const actor = actors.get(req);
    if (actor === undefined) throw new Error('A tus request without its signed-in person');
    return actor;
  };

  /** Takes a finished upload into an attachment, then removes it whatever the answer. */
  async function finish(req: TusRequest, upload: Upload) {
    const actor = actorOfTus(req);
    // The expiry takes the same lock: it never removes an upload while it becomes an attachment.
    const lock = partial.locker.newLock(upload.id);
    await lock.lock(new AbortController().signal, () => undefined);
    let stream: Readable | undefined;
    try {
      stream = await partial.read(upload.id);
      const attachment = await writes.add(actor, upload.metadata?.taskId ?? '', { name: upload.metadata?.filename ?? '', stream });
      return {
        status_code: 200,
        headers: { [ATTACHMENT_ID_HEADER]: attachment._id, 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ status: 'success', message: translate(languages.get(req) ?? 'en', ATTACHMENT_MESSAGES.attachmentAdded), data: { attachment } }),
      };
    } finally {
      // A refusal before the first byte leaves the stream unread: closed, it never opens a file removed below.
      stream?.destroy();
      try {
        await partial.remove(upload.id);
      } catch (error) {
        fastify.log.warn({ err: error, upload: upload.id }, 'Could not remove a finished upload; the hourly cleanup will');
      }
      await lock.unlock();
    }
  }

  const tus = new Server({
    path: `${fastify.prefix}/uploads`,
    datastore: partial.store,
    locker: partial.locker,
    maxSize: maxFileBytes,
    // `/api/uploads/<id>`: no Host or forwarded header decides where the client sends its bytes.
    relativeLocation: true,
    // Only CORS_ORIGINS, as plugins/security.ts allows (tus would answer `*` by default).
    allowedOrigins: (origin) => corsOrigins.has(origin),
    allowedCredentials: corsOrigins.size > 0,
    exposedHeaders: [ATTACHMENT_ID_HEADER],
    namingFunction: (req) => `${actorOfTus(req).userId}.${newId()}`,
    onIncomingRequest: (req, id) => {
      if (!id.startsWith(`${actorOfTus(req).userId}.`)) throw uploadNotFound();
      return Promise.resolve();
    },
    async onUploadCreate(req, upload) {
      if (upload.size === undefined) throw new AppError(400, 'VALIDATION_FAILED', ATTACHMENT_MESSAGES.uploadLengthRequired);
      const taskId = upload.metadata?.taskId ?? '';
      await writes.checkMayAdd(actorOfTus(req), taskId, upload.size);
      // When it began by the app's clock, for the expiry (whatever the client sent under that key).
      return { metadata: { ...upload.metadata, taskId, createdAt: fastify.clock.now().toISOString() } };
    },
    onUploadFinish: finish,
    onResponseError(req, error) {
      refusals.set(req, refusalOf(error, maxFileBytes));
      return undefined;
    },
  });

  fastify.addHook('onRequest', fastify.authenticate);
  // The bytes stay in the request for tus to stream; no other body type is accepted here either.
  fastify.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => {
    done(null, undefined);
  });

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const req = new NodeRequest({ req: request.raw, res: reply.raw });
    actors.set(req, actorOf(request));
    languages.set(req, requestLanguage(request));
    const response = await tus.handleWeb(req);
    // tus's headers (Tus-Resumable, Tus-Version, Upload-Offset…) go with refusals too; the body is ours.
    for (const [name, value] of response.headers) {
      if (name !== 'content-length' && (response.ok || name !== 'content-type')) void reply.header(name, value);
    }
    const body = response.body === null ? undefined : await response.text();
    // Refusals tus writes without its error hook (a missing Tus-Resumable, an invalid header) too.
    const refusal = refusals.get(req) ?? (response.ok ? undefined : refusalOf({ status_code: response.status, body }, maxFileBytes));
    if (refusal !== undefined) throw refusal;
    return reply.code(response.status).send(body);
  }

  // Described in POST /api/tasks/:id/attachments; tus requests have no JSON schema to show.
  const options = { schema: { hide: true } };
  fastify.post('/uploads', options, handle);
  fastify.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: '/uploads/:id', ...options, handler: handle });
  done();
};

export default uploads;
