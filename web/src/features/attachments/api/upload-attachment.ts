import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Static } from 'typebox';
import type { Attachment, AttachmentEnvelope } from '#shared/schemas/attachments.ts';
import { API_BASE, ApiError, failedAnswer, NETWORK_ERROR, NETWORK_ERROR_MESSAGE, parseBody } from '#web/lib/api-client.ts';
import type { DetailedError, Upload } from 'tus-js-client';
import { attachmentsPath } from './get-attachments.ts';

/*
 * Sending a file. Up to RESUMABLE_FROM bytes it is one `multipart/form-data` POST, sent by
 * XMLHttpRequest because fetch reports no upload progress. Larger files go by the tus 1.0
 * protocol (`/api/uploads`, tus-js-client, loaded only then): in chunks, each retried after a
 * dropped connection from where the server says it stopped, so a large upload survives a
 * network change. Either way the answer's failures are the API's envelope, turned into the same
 * ApiError as every other call's.
 */

/** From this size a file goes by the resumable protocol. */
export const RESUMABLE_FROM = 20_000_000;
/** The resumable protocol's chunk: one PATCH each, the most a dropped connection loses. */
export const RESUMABLE_CHUNK = 8_000_000;
/** Pauses before each new try of a chunk that got no answer (then the upload fails). */
const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000];
export const UPLOADS_ENDPOINT = `${API_BASE}/uploads`;
/** Shown when a refused upload's answer carries no message of its own. */
const UPLOAD_FAILED = msg`The file could not be uploaded.`;

export interface UploadHandle {
  /**
   * The attachment the server made; `null` when it came by the resumable protocol, whose last
   * answer does not carry it (the list is asked again). Rejects with an ApiError, or an
   * AbortError after `cancel`.
   */
  done: Promise<Attachment | null>;
  /** Stops sending; a resumable upload is also ended on the server (its part kept so far is dropped). */
  cancel: () => void;
}

export type OnProgress = (sent: number, total: number) => void;

// Never shown: a cancelled upload's row goes (use-uploads.ts); the words are for a developer's console.
// eslint-disable-next-line lingui/no-unlocalized-strings -- an exception's message for developers, not a text on screen
const aborted = () => new DOMException('The upload was cancelled.', 'AbortError');

/** `POST /api/tasks/:id/attachments` with the file in the field `file`: 201 with the attachment. */
function sendMultipart(taskId: string, file: File, onProgress: OnProgress): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Attachment>((resolve, reject) => {
    xhr.open('POST', `${API_BASE}${attachmentsPath(taskId)}`);
    // Same origin: the session cookie goes with it, and the browser adds the Origin the server checks.
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      const envelope = body as Partial<Static<typeof AttachmentEnvelope>> | null;
      if (xhr.status >= 200 && xhr.status < 300 && envelope?.status === 'success' && envelope.data) resolve(envelope.data.attachment);
      else reject(failedAnswer(xhr.status, body, xhr.getResponseHeader('Retry-After'), { fallbackMessage: i18n._(UPLOAD_FAILED) }));
    };
    xhr.onerror = () => {
      reject(new ApiError(0, NETWORK_ERROR, NETWORK_ERROR_MESSAGE));
    };
    xhr.onabort = () => {
      reject(aborted());
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return {
    done,
    cancel: () => {
      xhr.abort();
    },
  };
}

/** What a failed tus request answered, as an ApiError; no answer at all is a network error. */
function tusFailure(error: Error | DetailedError): ApiError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response || response.getStatus() === 0) return new ApiError(0, NETWORK_ERROR, NETWORK_ERROR_MESSAGE);
  return failedAnswer(response.getStatus(), parseBody(response.getBody()), response.getHeader('Retry-After') ?? null, { fallbackMessage: i18n._(UPLOAD_FAILED) });
}

/**
 * Whether a failed tus request is worth another try: no answer, a 5xx, or the protocol's own
 * 409/423 (offset mismatch, upload locked). A refusal in our envelope (quota, too many files,
 * no right) stays a refusal.
 */
function worthRetrying(status: number, body: string): boolean {
  if (status === 0 || status >= 500) return true;
  if (status !== 409 && status !== 423) return false;
  return (parseBody(body) as { status?: unknown } | null)?.status !== 'fail';
}

/** The tus upload to `/api/uploads` with `Upload-Metadata` taskId and filename; resumed from an earlier try of the same file. */
function sendResumable(taskId: string, file: File, onProgress: OnProgress): UploadHandle {
  let cancelled = false;
  // Asked after an await, when Cancel may have been pressed meanwhile.
  const isCancelled = () => cancelled;
  let upload: Upload | null = null;
  let fail: (error: unknown) => void = () => undefined;
  const done = new Promise<null>((resolve, reject) => {
    fail = reject;
    import('tus-js-client').then(
      async ({ Upload }) => {
        if (cancelled) return;
        const current = new Upload(file, {
          endpoint: UPLOADS_ENDPOINT,
          metadata: { taskId, filename: file.name },
          chunkSize: RESUMABLE_CHUNK,
          retryDelays: RETRY_DELAYS_MS,
          removeFingerprintOnSuccess: true,
          onBeforeRequest: (request) => {
            const xhr: unknown = request.getUnderlyingObject();
            if (xhr instanceof XMLHttpRequest) xhr.withCredentials = true;
          },
          onShouldRetry: (error) => worthRetrying(error.originalResponse?.getStatus() ?? 0, error.originalResponse?.getBody() ?? ''),
          onProgress,
          onSuccess: () => {
            resolve(null);
          },
          onError: (error) => {
            reject(tusFailure(error));
          },
        });
        upload = current;
        const previous = await current.findPreviousUploads();
        if (previous[0]) current.resumeFromPreviousUpload(previous[0]);
        if (!isCancelled()) current.start();
      },
      () => {
        reject(new ApiError(0, NETWORK_ERROR, NETWORK_ERROR_MESSAGE));
      },
    );
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      // Terminate: the server drops what it kept of the file (a failure here changes nothing shown).
      upload?.abort(true).catch(() => undefined);
      fail(aborted());
    },
  };
}

/** Starts sending `file` to the task, by the way its size calls for. */
export function uploadAttachment(taskId: string, file: File, onProgress: OnProgress): UploadHandle {
  return file.size > RESUMABLE_FROM ? sendResumable(taskId, file, onProgress) : sendMultipart(taskId, file, onProgress);
}

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';
