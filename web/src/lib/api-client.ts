import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The one way the web app talks to the API: JSON over `fetch`, cookies included, JSend
 * envelopes unwrapped. Every failure becomes an `ApiError`; a 401 on an authenticated call is
 * reported to one handler (the session), so no screen has to deal with an expired session.
 *
 * The server's messages are shown as they come (the server speaks the reader's language); the
 * words this client writes itself (no answer at all, an answer without a message) are messages
 * of the catalog, put into words when the error is made.
 */

export const API_BASE = '/api';

/** Code of the error thrown when the request never got an answer. */
export const NETWORK_ERROR = 'NETWORK_ERROR';
export const NETWORK_ERROR_MESSAGE = msg`Could not reach the server. Check your connection and try again.`;

/** A text of the server's (as it came) or of this client's (a message, in the language in use). */
export type ErrorWords = string | MessageDescriptor;

/** Words of a text; before any language is active (the page's first requests), a message's id. */
const wordsOf = (words: ErrorWords): string => (typeof words === 'string' ? words : i18n.locale ? i18n._(words) : (words.message ?? words.id));

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: readonly { field: string; message: string }[];
  /** Seconds from a 429's `Retry-After` header, when the server sent one. */
  readonly retryAfter: number | null;
  /** The `data` of a failure envelope (a 409 carries the current task there). */
  readonly data: unknown;

  constructor(
    status: number,
    code: string,
    message: ErrorWords,
    extra: { errors?: readonly { field: string; message: string }[]; retryAfter?: number | null; data?: unknown } = {},
  ) {
    super(wordsOf(message));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = extra.errors ?? [];
    this.retryAfter = extra.retryAfter ?? null;
    this.data = extra.data;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True for a 401 that the session handler has already dealt with (sign-out + notice). */
export function isUnauthorized(error: unknown): boolean {
  return isApiError(error) && error.status === 401;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The session registers itself here; returns the function that unregisters it. */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

let secondStepRequiredHandler: (() => void) | null = null;

/**
 * The app's answer to a 403 SECOND_STEP_REQUIRED (REQUIRE_2FA holds the account back until it
 * sets up two-step sign-in); returns the function that unregisters it.
 */
export function onSecondStepRequired(handler: () => void): () => void {
  secondStepRequiredHandler = handler;
  return () => {
    if (secondStepRequiredHandler === handler) secondStepRequiredHandler = null;
  };
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** A file sent as the body as it is (an import), with its content type; instead of `body`. */
  upload?: { data: Blob; type: string };
  query?: Record<string, string | number | null | undefined>;
  signal?: AbortSignal | undefined;
  /**
   * Whether a 401 means "your session is gone" (default). Sign-in, sign-up and logout
   * answer 401 for other reasons, or not at all, and handle it themselves.
   */
  authenticated?: boolean;
  /** Only HTTP 204 counts as success (the rule for DELETE the original task-board client relies on). */
  expectNoContent?: boolean;
  /** Message when a failed answer carries none. */
  fallbackMessage?: ErrorWords;
  /**
   * Sent as `Idempotency-Key`: a create sent again with the same key (after an answer that never
   * arrived) is answered with the first answer and changes nothing.
   */
  idempotencyKey?: string | undefined;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function parseRetryAfter(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

interface Envelope {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  data?: unknown;
}

async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The answer broke off after its headers (the connection dropped; the page is being left):
    // no answer, as when fetch itself fails, and not a broken one to show.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR, NETWORK_ERROR_MESSAGE);
  }
  return parseBody(text);
}

/** An answer's text as JSON; null when empty or not JSON. */
export function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function asEnvelope(body: unknown): Envelope {
  const envelope: Envelope = typeof body === 'object' && body !== null ? body : {};
  return envelope;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, upload, query, signal, authenticated = true, expectNoContent = false, idempotencyKey } = options;
  // A descriptor, put into words only if the request fails: the first requests start before the
  // language's catalog has loaded (main.tsx).
  const fallbackMessage = options.fallbackMessage ?? msg({ message: `The request failed (${method} ${path}).`, comment: 'method and path: the HTTP request, e.g. GET /tasks' });

  let response: Response;
  try {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (upload !== undefined) headers['Content-Type'] = upload.type;
    else if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    response = await fetch(buildUrl(path, query), {
      method,
      credentials: 'include',
      headers,
      body: upload !== undefined ? upload.data : body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR, NETWORK_ERROR_MESSAGE);
  }

  if (expectNoContent && response.status === 204) return undefined as T;

  const json = await readJson(response);
  const succeeded = expectNoContent ? false : response.ok && asEnvelope(json).status === 'success';
  if (succeeded) return json as T;
  throw failedAnswer(response.status, json, response.headers.get('Retry-After'), { fallbackMessage, authenticated });
}

/**
 * The ApiError of a failed answer: its envelope's code and message (or `fallbackMessage`). A 401
 * on an authenticated call goes to the session's handler. Also for answers that came another way
 * than `apiRequest` (an upload's XMLHttpRequest, which reports its progress).
 */
export function failedAnswer(
  status: number,
  body: unknown,
  retryAfterHeader: string | null,
  { fallbackMessage, authenticated = true }: { fallbackMessage: ErrorWords; authenticated?: boolean },
): ApiError {
  const envelope = asEnvelope(body);
  const message = typeof envelope.message === 'string' && envelope.message !== '' ? envelope.message : wordsOf(fallbackMessage);
  const code = typeof envelope.code === 'string' ? envelope.code : `HTTP_${status}`;
  const errors = Array.isArray(envelope.errors) ? (envelope.errors as { field: string; message: string }[]) : [];
  const error = new ApiError(status, code, message, { errors, retryAfter: parseRetryAfter(retryAfterHeader), data: envelope.data });
  if (status === 401 && authenticated) unauthorizedHandler?.();
  if (code === 'SECOND_STEP_REQUIRED') secondStepRequiredHandler?.();
  return error;
}
