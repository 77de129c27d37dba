import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests, written from the WebAuthn Level 3 and CTAP2
 * specifications with node:crypto (independent of the library the server uses): a P-256 key per
 * credential (COSE ES256), attestation "none", authenticator data with the UP, UV and AT flags,
 * ECDSA-SHA-256 assertions over authenticatorData ‖ SHA-256(clientDataJSON). What a browser adds
 * (the client data: type, challenge, origin) is built here too, so tests can also build what a
 * browser never would: another origin, another RP ID, no user verification, an old counter.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** Encodes the CBOR (RFC 8949) subset WebAuthn needs: integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    const type = major << 5;
    if (length < 24) return Buffer.from([type | length]);
    if (length < 0x100) return Buffer.from([type | 24, length]);
    if (length < 0x10000) return Buffer.from([type | 25, length >> 8, length & 0xff]);
    const out = Buffer.alloc(5);
    out[0] = type | 26;
    out.writeUInt32BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries: [Cbor, Cbor][] = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** What a test may change in one ceremony, to build an answer a real browser would not send. */
export interface Tamper {
  /** The origin the client data claims (default: the authenticator's). */
  origin?: string;
  /** The RP ID whose hash starts the authenticator data (default: the options' RP ID). */
  rpId?: string;
  /** Clear the user-verified flag. */
  noUserVerification?: boolean;
  /** Sign this challenge instead of the options' one. */
  challenge?: string;
  /** The signature counter to report (default: the credential's next one). */
  counter?: number;
}

export interface SoftCredential {
  id: Uint8Array;
  rpId: string;
  /** The user handle the relying party gave (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
  authenticatorSelection?: { residentKey?: string; userVerification?: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftAuthenticator {
  readonly origin: string;
  /** Discoverable credentials held, newest last. */
  readonly credentials: SoftCredential[] = [];
  /** Counters start at this and go up by one per signature (0 stays 0: an authenticator that keeps none). */
  readonly counterStep: number;

  constructor(origin: string, counterStep = 1) {
    this.origin = origin;
    this.counterStep = counterStep;
  }

  #clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, tamper: Tamper): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: tamper.challenge ?? challenge, origin: tamper.origin ?? this.origin, crossOrigin: false }), 'utf8');
  }

  #authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter, 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested === undefined ? [] : [attested])]);
  }

  /** navigator.credentials.create(): a new discoverable credential, answered as @simplewebauthn/browser would. */
  create(options: CreationOptions, tamper: Tamper = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: SoftCredential = { id: randomBytes(16), rpId, userHandle: options.user.id, privateKey, publicKey, counter: 0 };
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053): kty EC2 (1: 2), alg ES256 (3: -7), crv P-256 (-1: 1), x (-2), y (-3).
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, coseKey]);
    const flags = FLAG_UP | FLAG_AT | (tamper.noUserVerification === true ? 0 : FLAG_UV);
    const authData = this.#authData(tamper.rpId ?? rpId, flags, tamper.counter ?? 0, attested);
    const clientDataJSON = this.#clientData('webauthn.create', options.challenge, tamper);
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    };
  }

  /** navigator.credentials.get() with a discoverable credential (the newest for the RP ID, or the one given). */
  get(options: RequestOptions, tamper: Tamper = {}, chosen?: SoftCredential) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const credential = chosen ?? this.credentials.findLast((c) => c.rpId === rpId);
    if (credential === undefined) throw new Error(`no credential for ${rpId}`);
    credential.counter = tamper.counter ?? credential.counter + this.counterStep;
    const flags = FLAG_UP | (tamper.noUserVerification === true ? 0 : FLAG_UV);
    const authenticatorData = this.#authData(tamper.rpId ?? rpId, flags, credential.counter);
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, tamper);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
