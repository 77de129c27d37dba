import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service for tests (RFC 8030), written from the specifications with node:crypto only —
 * never with web-push or http_ece, so it checks our sending side independently:
 * - the VAPID `Authorization: vapid t=<JWT>, k=<key>` header (RFC 8292): an ES256 signature
 *   over the JWT by the key `k`, and the JWT's claims;
 * - the body, decrypted per RFC 8188 (aes128gcm) with the keys of RFC 8291, using the
 *   subscriber's own P-256 key pair and auth secret.
 */

export interface PushDevice {
  /** What the browser would send to POST /api/push/subscriptions. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The path part of the endpoint (the capability the push service handed out). */
  path: string;
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  /** The VAPID JWT's claims and key, once its signature is verified (else an error). */
  vapid: { claims: { aud: string; exp: number; sub: string }; publicKey: string } | { error: string };
  /** The decrypted payload (else an error). */
  plaintext: string | { error: string };
  /** The status this service answered. */
  status: number;
}

export interface PushService {
  readonly origin: string;
  readonly received: ReceivedPush[];
  /** A new device (key pair, auth secret) subscribed at this service; `host` replaces 127.0.0.1 in its endpoint. */
  device(host?: string): PushDevice;
  /** The next answers for `path`, in order (afterwards: 201). */
  respond(path: string, ...statuses: number[]): void;
  close(): Promise<void>;
}

const b64u = (bytes: Buffer) => bytes.toString('base64url');

/** Verifies a compact JWS signed with ES256 by an uncompressed P-256 point (base64url). */
function verifyVapid(header: string | undefined): ReceivedPush['vapid'] {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (match === null) return { error: `not a vapid Authorization header: ${header ?? '(none)'}` };
  const [, token = '', key = ''] = match;
  const [head = '', body = '', signature = ''] = token.split('.');
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { error: 'k is not an uncompressed P-256 point' };
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: 'jwk' });
  const jwtHeader = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (jwtHeader.alg !== 'ES256') return { error: `alg ${String(jwtHeader.alg)}` };
  const valid = verify('sha256', Buffer.from(`${head}.${body}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) return { error: 'bad ES256 signature' };
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  return { claims, publicKey: key };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record, the receiver's side. */
function decrypt(body: Buffer, receiver: ReturnType<typeof createECDH>, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not the sender's 65-byte public key`);
  if (record.length > recordSize) throw new Error('more than one record');
  const ecdhSecret = receiver.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: data, then the delimiter 0x02, then zero or more zero bytes of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter (0x02)');
  return padded.subarray(0, end).toString('utf8');
}

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, { receiver: ReturnType<typeof createECDH>; auth: Buffer }>();
  const answers = new Map<string, number[]>();
  const received: ReceivedPush[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const device = devices.get(path);
      let plaintext: ReceivedPush['plaintext'];
      try {
        if (device === undefined) throw new Error('unknown path');
        plaintext = decrypt(Buffer.concat(chunks), device.receiver, device.auth);
      } catch (error) {
        plaintext = { error: (error as Error).message };
      }
      const status = answers.get(path)?.shift() ?? 201;
      received.push({ path, headers: req.headers, vapid: verifyVapid(req.headers.authorization), plaintext, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : `status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    device(host = '127.0.0.1') {
      const receiver = createECDH('prime256v1');
      receiver.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${b64u(randomBytes(24))}`;
      devices.set(path, { receiver, auth });
      return {
        path,
        subscription: { endpoint: `http://${host}:${port}${path}`, keys: { p256dh: b64u(receiver.getPublicKey()), auth: b64u(auth) } },
      };
    },
    respond(path, ...statuses) {
      answers.set(path, statuses);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}
