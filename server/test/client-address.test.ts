import { describe, expect, it } from 'vitest';
import { OTP_POLICY } from '#shared/constants.ts';
import { uniqueEmail } from './factories.ts';
import { useTestApp } from './helpers.ts';

/**
 * Which client a per-IP limit counts: the address Fastify derives from the socket and, with
 * TRUST_PROXY, from X-Forwarded-For; IPv6 clients by their /64. Observed through the hourly
 * per-IP cap of one-time codes: the budget of one address is used up, then a request shows
 * whether it is counted as that client (429) or another one (201).
 */
const t = useTestApp();

/** Spends what is left of the hourly code budget of `ip`. */
async function exhaust(ip: string): Promise<void> {
  for (let i = 0; i < OTP_POLICY.maxPerIpPerHour; i++) await t.app.rateLimits.otpPerIp.hit(ip);
  expect(await t.app.rateLimits.otpPerIp.hit(ip)).toBeGreaterThan(0);
}

/** A code request from `socket`, through proxies that wrote `forwardedFor`; the status only. */
async function codeStatus(socket: string, forwardedFor?: string): Promise<number> {
  const headers = forwardedFor === undefined ? undefined : { 'x-forwarded-for': forwardedFor };
  const res = await t.request('POST', '/api/otps', { body: { email: uniqueEmail() }, ip: socket, ...(headers === undefined ? {} : { headers }) });
  expect([201, 429], res.body).toContain(res.status);
  return res.status;
}

describe('per-IP limits and IPv6', () => {
  it('count the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
    await exhaust('2001:db8:1:2::1');
    expect(await codeStatus('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(429);
    expect(await codeStatus('2001:0db8:0001:0002:0000:0000:0000:0009')).toBe(429);
    expect(await codeStatus('2001:db8:1:3::1')).toBe(201);
  });

  it('count IPv4 clients per address, whether the socket shows them plain or IPv4-mapped', async () => {
    await exhaust('192.0.2.1');
    expect(await codeStatus('::ffff:192.0.2.1')).toBe(429);
    // All IPv4-mapped addresses lie in one /64; each is still its own client.
    expect(await codeStatus('::ffff:192.0.2.2')).toBe(201);
    expect(await codeStatus('192.0.2.3')).toBe(201);
  });
});

describe('TRUST_PROXY', () => {
  const proxy = '127.0.0.1';

  it('true trusts one proxy: the right-most X-Forwarded-For entry is the client, a spoofed left-most one is not', async () => {
    await t.rebuild({ TRUST_PROXY: 'true' });
    await exhaust('198.51.100.66');
    // The client wrote the first entry itself; nginx appended the address it saw.
    expect(await codeStatus(proxy, '198.51.100.66, 203.0.113.5')).toBe(201);
    await exhaust('203.0.113.5');
    expect(await codeStatus(proxy, '198.51.100.67, 203.0.113.5')).toBe(429);
  });

  it.each([
    // socket (proxy 1) ← 10.0.0.2 (proxy 2) ← the client ← whatever the client wrote
    { trust: '2', forwardedFor: '198.51.100.1, 203.0.113.20, 10.0.0.2', client: '203.0.113.20' },
    { trust: '127.0.0.1, 10.0.0.0/8', forwardedFor: '198.51.100.2, 203.0.113.30, 10.1.2.3', client: '203.0.113.30' },
    // 192.0.2.9 is not a listed proxy: it is the client, whatever it forwarded.
    { trust: '127.0.0.1, 10.0.0.0/8', forwardedFor: '203.0.113.31, 192.0.2.9', client: '192.0.2.9' },
  ])('TRUST_PROXY=$trust finds the client $client in X-Forwarded-For: $forwardedFor', async ({ trust, forwardedFor, client }) => {
    await t.rebuild({ TRUST_PROXY: trust });
    await exhaust(client);
    expect(await codeStatus(proxy, forwardedFor)).toBe(429);
    // The entry next to the client's, in its place, is another client.
    expect(await codeStatus(proxy, forwardedFor.replace(client, '203.0.113.99'))).toBe(201);
  });

  it('a socket that is not a listed proxy is the client; its X-Forwarded-For is ignored', async () => {
    await t.rebuild({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    await exhaust('192.0.2.10');
    expect(await codeStatus('192.0.2.10', '203.0.113.32')).toBe(429);
  });

  it('false (the default) ignores X-Forwarded-For', async () => {
    await exhaust('192.0.2.50');
    expect(await codeStatus('192.0.2.50', '203.0.113.40')).toBe(429);
  });
});
