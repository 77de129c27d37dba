import { createPublicKey } from 'node:crypto';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { DeletePushSubscriptionBody, NOTIFICATION_POLICY, PublicKeyEnvelope, PushSubscriptionBody } from '#shared/schemas/notifications.ts';
import { newId } from '../../db/ids.ts';
import { AppError, notAuthenticated, validationFailed, type FieldError } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { message, text } from '#shared/i18n.ts';
import { translateFor } from '../../i18n/request-language.ts';

export const PUSH_MESSAGES = {
  subscribed: text('Notifications are on for this device.'),
  badEndpoint: text('The push endpoint must be an http or https URL.'),
  badP256dh: text('keys.p256dh must be the base64url of a 65-byte uncompressed P-256 public key.'),
  badAuth: text('keys.auth must be the base64url of a 16-byte secret.'),
  tooMany: message('At most {max} devices can receive notifications per account. Turn them off on a device you no longer use.', { max: NOTIFICATION_POLICY.subscriptionsPerUser }),
} as const;

/** base64url as browsers write it (`PushSubscription.toJSON()`), padding tolerated. */
function decodeBase64Url(value: string): Buffer | null {
  const bare = value.replace(/={0,2}$/, '');
  return /^[A-Za-z0-9_-]*$/.test(bare) ? Buffer.from(bare, 'base64url') : null;
}

/** True when `bytes` is an uncompressed point on P-256 (what RFC 8291 encrypts to). */
function isP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: bytes.subarray(1, 33).toString('base64url'), y: bytes.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** The subscription's fields, normalized (unpadded base64url), or the list of what is wrong. */
function checkSubscription(body: PushSubscriptionBody): { endpoint: string; p256dh: string; auth: string } {
  const errors: FieldError[] = [];
  let protocol = '';
  try {
    protocol = new URL(body.endpoint).protocol;
  } catch {
    // stays ''
  }
  if (protocol !== 'http:' && protocol !== 'https:') errors.push({ field: 'endpoint', message: PUSH_MESSAGES.badEndpoint });
  const p256dh = decodeBase64Url(body.keys.p256dh);
  if (p256dh === null || !isP256Point(p256dh)) errors.push({ field: 'keys.p256dh', message: PUSH_MESSAGES.badP256dh });
  const auth = decodeBase64Url(body.keys.auth);
  if (auth?.length !== 16) errors.push({ field: 'keys.auth', message: PUSH_MESSAGES.badAuth });
  if (errors.length > 0 || p256dh === null || auth === null) throw validationFailed(errors);
  return { endpoint: body.endpoint, p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') };
}

/**
 * Web push subscriptions: the VAPID public key browsers subscribe with, and the signed-in
 * person's devices. Deliveries go through the outbox (server/push/push-sender.ts).
 */
const push: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock } = fastify;
  const repo = fastify.pushSubscriptionsRepository;

  fastify.get(
    '/push/public-key',
    {
      schema: {
        tags: ['push'],
        summary: 'The VAPID public key (RFC 8292) to pass to PushManager.subscribe as applicationServerKey',
        description: 'No sign-in needed.',
        response: { 200: serializable(PublicKeyEnvelope), ...errorResponses },
      },
    },
    () => ({ status: 'success', data: { publicKey: fastify.config.vapid.publicKey } }) as const,
  );

  fastify.post(
    '/push/subscriptions',
    {
      onRequest: fastify.authenticate,
      // A device's subscription is made by the browser signed in on it, never with an API token.
      config: { apiTokens: 'forbidden' },
      schema: {
        tags: ['push'],
        summary: "Receive notifications on this device: store the browser's push subscription",
        description:
          'The body is `PushSubscription.toJSON()`. The endpoint must be an http(s) URL; `keys.p256dh` a P-256 public key ' +
          '(65 bytes, base64url) and `keys.auth` 16 bytes. An endpoint already stored (for any account) moves to mine. ' +
          `At most ${NOTIFICATION_POLICY.subscriptionsPerUser} per account: past that, 409 LIMIT_REACHED.`,
        security: sessionSecurity,
        body: PushSubscriptionBody,
        response: { 201: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const subscription = checkSubscription(request.body);
      const user = currentUser(request);
      const outcome = await fastify.db.transaction().execute((trx) =>
        repo.subscribe(
          { id: newId(), userId: user.id, ...subscription, createdAt: clock.now().toISOString() },
          NOTIFICATION_POLICY.subscriptionsPerUser,
          trx,
        ),
      );
      if (outcome === undefined) throw notAuthenticated();
      if (outcome === 'full') throw new AppError(409, 'LIMIT_REACHED', PUSH_MESSAGES.tooMany);
      request.log.info({ outcome, origin: new URL(subscription.endpoint).origin }, 'Push subscription stored');
      return reply.code(201).send({ status: 'success', message: translateFor(request, PUSH_MESSAGES.subscribed) });
    },
  );

  fastify.delete(
    '/push/subscriptions',
    {
      onRequest: fastify.authenticate,
      // A device's subscription is made by the browser signed in on it, never with an API token.
      config: { apiTokens: 'forbidden' },
      schema: {
        tags: ['push'],
        summary: 'Stop notifications on this device: 204 with an empty body',
        description: "Deletes my subscription with this endpoint. Someone else's, or an unknown one, is left alone (still 204).",
        security: sessionSecurity,
        body: DeletePushSubscriptionBody,
        response: { 204: Type.Null({ description: 'Done; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await repo.deleteOwn(currentUser(request).id, request.body.endpoint);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default push;
