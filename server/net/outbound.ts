import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The outbound-address rule, for every request the server sends to an address someone else
 * chose (push endpoints; webhooks later). Such a URL must be http: or https:, and it is refused
 * when its host is, or resolves to, an address that is not public unicast: loopback, private
 * (RFC 1918, IPv6 unique-local), link-local, unspecified, multicast, broadcast, carrier-grade
 * NAT, reserved/documentation/benchmarking ranges, and the same hidden inside IPv6 (IPv4-mapped,
 * IPv4-translated, 6to4, NAT64). A name is refused when ANY of its addresses is.
 *
 * The check runs at delivery time, after DNS, inside the connection's own `lookup`: the socket
 * connects to exactly the addresses that were checked, so a name that answers a public address
 * to a first lookup and 127.0.0.1 to a second (DNS rebinding) gains nothing. IP-literal hosts
 * skip `lookup` in Node, so they are checked before the request (`checkOutboundUrl`).
 * `OUTBOUND_ALLOW_PRIVATE=true` (tests, closed networks) lifts the address part, never the scheme.
 * See docs/decisions/074-outbound-address-rule.md.
 */

/** Thrown (or passed to the socket) when a target breaks the rule; never worth a retry. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The IPv4 address carried in two 16-bit groups of an IPv6 address. */
const embeddedV4 = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

/** 2000::/3: every IPv6 unicast address the internet routes today. */
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

/**
 * Why `address` may not be a target (the range's name, e.g. `loopback`, `private`,
 * `uniqueLocal`), or null when it is public unicast. Unparseable input is refused.
 */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return range === 'unicast' ? null : range;
  }
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const p = v6.parts;
  // Addresses that carry an IPv4 address (and may be delivered to it) are judged by that one.
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && p[1] === 0xff9b && p[2] === 0)) {
    return refusedRange(embeddedV4(p[6] ?? 0, p[7] ?? 0).toString());
  }
  if (range === '6to4') return refusedRange(embeddedV4(p[1] ?? 0, p[2] ?? 0).toString());
  if (range !== 'unicast') return range;
  // ipaddr.js calls everything it has no name for `unicast`, e.g. ::7f00:1 (IPv4-compatible, deprecated).
  return v6.match(GLOBAL_UNICAST, 3) ? null : 'reserved';
}

/** The rule for one resolved address. */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  return allowPrivate || refusedRange(address) === null;
}

/** A URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Parses `raw` and applies the parts of the rule that need no DNS: the scheme, and the address
 * of an IP-literal host. Throws OutboundRefusedError; the name's addresses are checked when the
 * request connects (`createOutboundAgents`).
 */
export function checkOutboundUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError(`scheme ${url.protocol} is not http: or https:`);
  const host = hostOf(url);
  if (isIP(host) !== 0 && !isAllowedAddress(host, allowPrivate)) {
    throw new OutboundRefusedError(`${host} is a ${refusedRange(host) ?? ''} address`);
  }
  return url;
}

/** A `lookup` for sockets: resolves every address, refuses the name if any breaks the rule, returns only checked ones. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((a) => !isAllowedAddress(a.address, allowPrivate));
      if (refused !== undefined) {
        callback(new OutboundRefusedError(`${hostname} resolves to ${refused.address}, a ${refusedRange(refused.address) ?? ''} address`), '', 0);
        return;
      }
      if (options.all === true) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const first = addresses[0];
      if (first === undefined) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      else callback(null, first.address, first.family);
    });
  };
}

export interface OutboundAgents {
  http: http.Agent;
  https: https.Agent;
  readonly allowPrivate: boolean;
  /** Closes kept-alive sockets (at shutdown). */
  destroy(): void;
}

/** Keep-alive agents whose every connection goes through the rule. */
export function createOutboundAgents(allowPrivate: boolean): OutboundAgents {
  const lookup = guardedLookup(allowPrivate);
  const options = { keepAlive: true, maxSockets: 16, lookup };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    ...agents,
    allowPrivate,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export interface OutboundRequest {
  method: string;
  headers: Record<string, string | number>;
  body?: Buffer | string | null;
  /** The whole exchange (DNS, connect, request, answer) must finish within this. */
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's first 64 KB as text (an error description, usually). */
  body: string;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends one request under the rule and resolves with any HTTP answer (2xx or not). Rejects with
 * OutboundRefusedError when the rule refuses the target, or with the network error or timeout.
 * Redirects are not followed.
 */
export async function outboundRequest(agents: OutboundAgents, target: string, request: OutboundRequest): Promise<OutboundResponse> {
  const url = checkOutboundUrl(target, agents.allowPrivate);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolvePromise, reject) => {
    const req = client.request(
      url,
      {
        method: request.method,
        headers: request.headers,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          resolvePromise({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body ?? undefined);
  });
}
