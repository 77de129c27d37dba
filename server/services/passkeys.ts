import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { newId } from '../db/ids.ts';
import { AppError } from '../errors.ts';
import type { Executor } from '../db/prepared.ts';
import type { ChallengePurpose, PasskeySummary } from '../repositories/passkeys-repository.ts';
import { PASSKEY_POLICY } from '#shared/passkeys.ts';
import type { Translatable } from '#shared/i18n.ts';

/**
 * Passkeys (WebAuthn): the ceremonies are @simplewebauthn/server's; what is ours is where the
 * challenges live (rows of the database, so any instance can finish a ceremony another began,
 * each used once: docs/decisions/156-webauthn-challenges-in-the-database.md) and the relying
 * party: its ID is the host name of APP_ORIGIN and the only origin accepted is APP_ORIGIN
 * (docs/decisions/157-passkey-relying-party-id.md). Discoverable credentials and user
 * verification are required: a passkey is both factors of a sign-in
 * (docs/decisions/158-a-passkey-is-both-factors.md).
 */

const RP_NAME = 'Taskwise';

/** A ceremony's answer that was not accepted (the reason is logged, never shown). */
export class PasskeyRejected extends Error {}

/** A ceremony the library or the challenge refused: the reason goes to the log, the person gets one sentence. */
export function passkeyRefused(log: FastifyBaseLogger, error: unknown, status: 400 | 401, message: Translatable): never {
  if (!(error instanceof PasskeyRejected)) throw error;
  log.info({ reason: error.message }, 'Passkey ceremony refused');
  throw new AppError(status, 'PASSKEY_NOT_ACCEPTED', message);
}

export function relyingPartyOf(fastify: FastifyInstance): { rpID: string; origin: string } {
  const origin = fastify.config.appOrigin;
  return { rpID: new URL(origin).hostname, origin };
}

async function newChallenge(fastify: FastifyInstance, purpose: ChallengePurpose, userId: string | null, challenge: string): Promise<void> {
  const expiresAt = new Date(fastify.clock.now().getTime() + PASSKEY_POLICY.challengeTtlMs).toISOString();
  await fastify.passkeysRepository.insertChallenge({ challenge, purpose, userId, expiresAt });
}

/**
 * The challenge the browser signed (from its client data), used up now: the same answer is
 * never accepted twice, whatever happens next. Throws for one not handed out for this purpose
 * (and account), expired, or used.
 */
async function consumeChallengeOf(fastify: FastifyInstance, clientDataJSON: unknown, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  let challenge: unknown;
  try {
    challenge = decodeClientDataJSON(String(clientDataJSON)).challenge;
  } catch {
    throw new PasskeyRejected('clientDataJSON is not JSON');
  }
  if (typeof challenge !== 'string' || challenge.length > 200) throw new PasskeyRejected('no challenge in clientDataJSON');
  const now = fastify.clock.now().toISOString();
  if (!(await fastify.passkeysRepository.consumeChallenge(challenge, purpose, userId, now))) throw new PasskeyRejected('unknown, expired or used challenge');
  return challenge;
}

const transportsOf = (json: string): AuthenticatorTransport[] => {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed.filter((t): t is AuthenticatorTransport => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

/** Options for adding a passkey to the account; its challenge is stored for this account. */
export async function registrationOptions(fastify: FastifyInstance, user: { id: string; email: string; fullName: string }) {
  const { rpID } = relyingPartyOf(fastify);
  const existing = await fastify.passkeysRepository.credentialsOf(user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userID: new TextEncoder().encode(user.id),
    userName: user.email,
    userDisplayName: user.fullName,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: transportsOf(c.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_POLICY.challengeTtlMs,
  });
  await newChallenge(fastify, 'register', user.id, options.challenge);
  return options;
}

/** Checks a new passkey's attestation (its challenge used up) and stores it. */
export async function addPasskey(fastify: FastifyInstance, userId: string, name: string, response: RegistrationResponseJSON): Promise<PasskeySummary> {
  const expectedChallenge = await consumeChallengeOf(fastify, response.response.clientDataJSON, 'register', userId);
  const { rpID, origin } = relyingPartyOf(fastify);
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true });
  } catch (error) {
    throw new PasskeyRejected(error instanceof Error ? error.message : String(error));
  }
  if (!verified.verified) throw new PasskeyRejected('registration not verified');
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  return fastify.passkeysRepository.insert({
    id: newId(),
    userId,
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    multiDevice: credentialDeviceType === 'multiDevice' ? 1 : 0,
    backedUp: credentialBackedUp ? 1 : 0,
    name,
    createdAt: fastify.clock.now().toISOString(),
  });
}

/** Options for a sign-in with any passkey of this site (no account named: discoverable credentials). */
export async function signInOptions(fastify: FastifyInstance) {
  const { rpID } = relyingPartyOf(fastify);
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: PASSKEY_POLICY.challengeTtlMs });
  await newChallenge(fastify, 'sign-in', null, options.challenge);
  return options;
}

/** A checked passkey sign-in: the account, and the write that records the use (for the session's transaction). */
export interface PasskeySignIn {
  user: { id: string; email: string; fullName: string };
  recordUse: (ex: Executor) => Promise<void>;
}

/**
 * Checks a sign-in assertion: its challenge (used up first), a credential still registered,
 * the account it belongs to (the user handle, when sent, must be that account), the origin and
 * RP ID, user verification, the signature and the counter.
 */
export async function checkPasskeySignIn(fastify: FastifyInstance, response: AuthenticationResponseJSON): Promise<PasskeySignIn> {
  const expectedChallenge = await consumeChallengeOf(fastify, response.response.clientDataJSON, 'sign-in', null);
  const repo = fastify.passkeysRepository;
  const passkey = await repo.findByCredentialId(response.id);
  if (passkey === undefined) throw new PasskeyRejected('unknown credential');
  const { userHandle } = response.response;
  if (userHandle !== undefined && userHandle !== isoBase64URL.fromUTF8String(passkey.userId)) throw new PasskeyRejected('user handle of another account');
  const { rpID, origin } = relyingPartyOf(fastify);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: transportsOf(passkey.transports) },
    });
  } catch (error) {
    throw new PasskeyRejected(error instanceof Error ? error.message : String(error));
  }
  if (!verified.verified) throw new PasskeyRejected('assertion not verified');
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  const now = fastify.clock.now().toISOString();
  return {
    user: { id: passkey.userId, email: passkey.email, fullName: passkey.fullName },
    async recordUse(ex) {
      // Another sign-in with a cloned authenticator that moved the counter meanwhile loses.
      if (!(await repo.recordUse(passkey.id, { counter: passkey.counter, newCounter, backedUp: credentialBackedUp, now }, ex))) {
        throw new PasskeyRejected('counter moved meanwhile');
      }
    },
  };
}
