import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_WINDOW_MS, LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Executor } from '../db/prepared.ts';
import { AppError, validationFailed } from '../errors.ts';
import { currentUser } from '../plugins/session.ts';
import type { StoredAnswer } from '../repositories/idempotency-repository.ts';

/** The header, as Node names it (lower case). */
const HEADER = 'idempotency-key';
/** Printable ASCII, spaces included (an HTTP field value; Node has trimmed its ends). */
const KEY_RE = new RegExp(`^[\\x20-\\x7e]{1,${LIMITS.idempotencyKeyMax}}$`);

/** The OpenAPI description of the header, shared by the routes that take it. */
export const IDEMPOTENCY_KEY_DOC =
  `Optional, 1–${LIMITS.idempotencyKeyMax} printable ASCII characters, chosen by the client (a UUID, say). A repeat of the call with the same key by the same person within 24 hours ` +
  'answers the first (successful) answer again — same status, same body, with `Idempotent-Replayed: true` — and changes nothing. ' +
  'Only successful answers are remembered: after a refusal the same key may be sent again. ' +
  'A key already used on another call (another route, or a comment on another task) is 422 IDEMPOTENCY_KEY_REUSED; an invalid key is 400.';

/** What a route answers: the status and the JSON payload (serialized by the route's response schema). */
export interface Answer {
  status: number;
  payload: unknown;
}

/**
 * Handed to a create sent with an Idempotency-Key; the write calls both inside its transaction:
 * `claim` first (it waits for a concurrent request holding the same key, and throws when that
 * one committed, which rolls the write back), `remember` with the write's result before the
 * commit, so the key's row and its answer commit with the rows they answer for, or not at all.
 */
export interface OnceOnly<T> {
  claim(ex: Executor): Promise<void>;
  remember(value: T, ex: Executor): Promise<void>;
}

/** Thrown by `claim` when another request holds the key; answerOnce answers what that one stored. */
class KeyTaken extends Error {}

/** The request's Idempotency-Key: undefined without the header, 400 VALIDATION_FAILED naming it when invalid. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER];
  if (value === undefined) return undefined;
  // Node joins a repeated header with ", "; as an array it would be a set-cookie-like header.
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (!KEY_RE.test(key)) throw validationFailed([{ field: 'Idempotency-Key', message: SERVER_MESSAGES.idempotencyKeyInvalid }]);
  return key;
}

/** A stored answer sent again as it was (its JSON text, byte for byte), or 422 when it answered another call. */
function replay(reply: FastifyReply, stored: StoredAnswer, scope: string): void {
  if (stored.scope !== scope) throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED', SERVER_MESSAGES.idempotencyKeyReused);
  reply.code(stored.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(stored.body);
}

/**
 * Answers a create (sends it on `reply`) once per Idempotency-Key. Without the header:
 * `write(undefined)` and its answer, nothing else (no query is added). With it: an answer stored for the person's key in
 * the last 24 hours is sent again before anything else is checked (the retry of a create whose
 * deadline has passed since is still the same create); otherwise `write(once)` runs, and the
 * write stores its answer through `once` (see OnceOnly). A request that lost the race for the
 * key to a concurrent one answers what that one stored. `scope` names the call
 * (`POST /api/tasks/<id>/comments` for a comment), so a key is not reused across calls.
 * Refusals (4xx) are not stored: their write rolled back with the claim.
 */
export async function answerOnce<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  answerOf: (value: T) => Answer,
  write: (once: OnceOnly<T> | undefined) => Promise<T>,
): Promise<void> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) {
    const answer = answerOf(await write(undefined));
    reply.code(answer.status).send(answer.payload);
    return;
  }
  const repo = request.server.idempotencyRepository;
  const userId = currentUser(request).id;
  const now = request.server.clock.now();
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const stored = await repo.find(userId, key, since);
  if (stored !== undefined) {
    replay(reply, stored, scope);
    return;
  }

  // The JSON text stored is the one sent: the route's serializer writes it once.
  let sent: { status: number; body: string } | undefined;
  const once: OnceOnly<T> = {
    async claim(ex) {
      if (!(await repo.claim({ userId, key, scope, createdAt: now.toISOString() }, since, ex))) throw new KeyTaken();
    },
    async remember(value, ex) {
      const answer = answerOf(value);
      const body = reply.code(answer.status).serialize(answer.payload);
      if (typeof body !== 'string') throw new Error('The route serializer did not write text');
      await repo.answer(userId, key, answer.status, body, ex);
      sent = { status: answer.status, body };
    },
  };
  let taken = false;
  try {
    await write(once);
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    taken = true;
  }
  if (taken) {
    const winner = await repo.find(userId, key, since);
    if (winner === undefined) throw new Error('An Idempotency-Key was taken by a request that stored no answer');
    replay(reply, winner, scope);
    return;
  }
  if (sent === undefined) throw new Error('An idempotent create committed without storing its answer');
  reply.code(sent.status).type('application/json; charset=utf-8').send(sent.body);
}
