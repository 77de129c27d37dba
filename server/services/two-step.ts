import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Executor } from '../db/prepared.ts';
import { TWO_STEP_POLICY } from '#shared/two-step.ts';

/**
 * The second step of sign-in: TOTP codes (RFC 6238) from an authenticator app, and one-time
 * recovery codes. The TOTP arithmetic is the `otpauth` library's (tested against the RFC's
 * vectors in test/two-step-vectors.test.ts); what is ours is storing and using codes up.
 */

const ISSUER = 'Taskwise';
const KEY_INFO = 'taskwise totp secret v1';
const BOX_VERSION = 'v1';

/**
 * A TOTP generator: SHA-1, 30 s and (in the product) 6 digits, what every authenticator app
 * reads. `digits` is there for RFC 6238's 8-digit test vectors.
 */
export function totpOf(secretBase32: string, label = '', digits: number = TWO_STEP_POLICY.digits): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits,
    period: TWO_STEP_POLICY.periodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export const isTotpCode = (code: string) => new RegExp(`^\\d{${TWO_STEP_POLICY.digits}}$`).test(code);

/**
 * The RFC 6238 time step whose code `code` is, at `nowMs`, allowing one step of clock drift
 * either side; null for a wrong code.
 */
export function stepOfCode(secretBase32: string, code: string, nowMs: number): number | null {
  const trimmed = code.replace(/\s+/g, '');
  if (!isTotpCode(trimmed)) return null;
  const delta = totpOf(secretBase32).validate({ token: trimmed, timestamp: nowMs, window: TWO_STEP_POLICY.driftSteps });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TWO_STEP_POLICY.periodSeconds) + delta;
}

/**
 * Seals secrets at rest with AES-256-GCM under a key derived (HKDF-SHA-256) from the session
 * secret: a copy of the database alone does not give the authenticator secrets. Changing
 * SESSION_SECRET makes stored secrets unreadable (such accounts are reset with
 * `npm run admin -- users:reset-2fa`).
 */
export function createSecretBox(sessionSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.alloc(0), KEY_INFO, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [BOX_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    /** The secret, or null when the box was sealed under another key or altered. */
    open(box: string): string | null {
      const [version, iv, tag, body] = box.split('.');
      if (version !== BOX_VERSION || iv === undefined || tag === undefined || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

const boxes = new WeakMap<FastifyInstance, SecretBox>();
/** The app's secret box (its key derived once per app). */
export function secretBoxOf(fastify: FastifyInstance): SecretBox {
  let box = boxes.get(fastify);
  if (box === undefined) {
    box = createSecretBox(fastify.config.sessionSecret);
    boxes.set(fastify, box);
  }
  return box;
}

/** Recovery codes read aloud or typed: no 0/O, 1/l/I, in groups of four. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 16 characters of a 31-letter alphabet: about 79 bits, so an unsalted SHA-256 cannot be searched. */
const RECOVERY_LENGTH = 16;

function newRecoveryCode(): string {
  let code = '';
  while (code.length < RECOVERY_LENGTH) {
    for (const byte of randomBytes(32)) {
      // Rejection sampling keeps every letter equally likely (248 = 8 × 31).
      if (byte < 248 && code.length < RECOVERY_LENGTH) code += RECOVERY_ALPHABET.charAt(byte % RECOVERY_ALPHABET.length);
    }
  }
  return code.match(/.{4}/g)?.join('-') ?? code;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: TWO_STEP_POLICY.recoveryCodeCount }, newRecoveryCode);
}

/** Case, spaces and dashes do not matter when a recovery code is typed back. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]+/g, '')).digest('hex');
}

export const hashSecondStepToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An authenticator's QR code as an SVG document. */
export function qrSvgOf(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * Whether a password sign-in of the account asks for a code: an authenticator app is on.
 * REQUIRE_2FA also accepts a passkey instead (services/sign-in-methods.ts).
 */
export function hasSecondStep(fastify: FastifyInstance, userId: string, ex?: Executor): Promise<boolean> {
  return fastify.twoStepRepository.isOn(userId, ex);
}

/** A code or a recovery code that proved right, to be used up in the transaction of what it allows. */
export type SecondStepProof = { kind: 'totp'; step: number } | { kind: 'recovery'; codeHash: string };

/**
 * Checks a proof for the account's confirmed authenticator without using it up: a code of a
 * step not yet used, or an unused recovery code. null for anything else.
 */
export async function checkProof(
  fastify: FastifyInstance,
  userId: string,
  proof: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<SecondStepProof | null> {
  const repo = fastify.twoStepRepository;
  const factor = await repo.factorOf(userId);
  if (factor?.confirmedAt == null) return null;
  if (proof.code !== undefined) {
    const secret = secretBoxOf(fastify).open(factor.secretBox);
    if (secret === null) return null;
    const step = stepOfCode(secret, proof.code, fastify.clock.now().getTime());
    if (step === null || (factor.lastStep !== null && step <= factor.lastStep)) return null;
    return { kind: 'totp', step };
  }
  if (proof.recoveryCode !== undefined) {
    const codeHash = hashRecoveryCode(proof.recoveryCode);
    return (await repo.hasRecoveryCode(userId, codeHash)) ? { kind: 'recovery', codeHash } : null;
  }
  return null;
}

/** Uses a checked proof up; false when another request used it first. */
export function useProof(fastify: FastifyInstance, userId: string, proof: SecondStepProof, ex: Executor): Promise<boolean> {
  const repo = fastify.twoStepRepository;
  return proof.kind === 'totp' ? repo.useStep(userId, proof.step, ex) : repo.useRecoveryCode(userId, proof.codeHash, fastify.clock.now().toISOString(), ex);
}
