import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The signature checked against the receiver's secret, independently of the app's library. */
  verified: boolean;
}

/**
 * Checks a Standard Webhooks signature with node:crypto only: the key is the base64 after
 * `whsec_`; the signed text is `${id}.${timestamp}.${body}`; any of the space-separated `v1,<base64>`
 * signatures may match; the timestamp must be within `toleranceSeconds` of `nowSeconds`.
 */
export function verifySignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 5 * 60,
): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const timestamp = Number(headers.timestamp);
  if (!/^\d+$/.test(headers.timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
  return headers.signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A real HTTP receiver on 127.0.0.1 for the tests: it records every request and answers with
 * `answer(path)` (a status, or 'hang' to never answer). Signatures are verified against
 * `secrets[path]` at the test clock's `now()`.
 */
export async function startReceiver(now: () => Date) {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const state = { answer: (_path: string): number | 'hang' => 200 };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
      };
      const secret = secrets.get(path);
      const verified = secret !== undefined && verifySignature(secret, headers, body, Math.floor(now().getTime() / 1000));
      received.push({ path, ...headers, body, verified });
      const answer = state.answer(path);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    secrets,
    state,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    at: (path: string) => received.filter((r) => r.path === path),
    /** From now on answers `status`, the requests left hanging included. */
    release(status: number) {
      state.answer = () => status;
      for (const res of hanging) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => { resolve(); }));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
