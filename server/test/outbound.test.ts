import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkOutboundUrl, createOutboundAgents, guardedLookup, outboundRequest, OutboundRefusedError, refusedRange } from '../net/outbound.ts';

describe('the outbound-address rule', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:0:192.168.1.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['::7f00:1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'teredo'],
    ['not an address', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(refusedRange(address)).toBeNull();
    },
  );

  it('accepts only http: and https: URLs and checks IP-literal hosts before any connection', () => {
    expect(checkOutboundUrl('https://push.example.com/x', false).host).toBe('push.example.com');
    expect(checkOutboundUrl('http://8.8.8.8:8080/x', false).port).toBe('8080');
    for (const raw of ['ftp://push.example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      expect(() => checkOutboundUrl(raw, true)).toThrow(OutboundRefusedError);
    }
    // Literal forms the URL parser normalizes (decimal, hex, short) are checked as the address they are.
    for (const raw of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'https://[fd00::1]:8443/', 'http://169.254.169.254/latest/meta-data/']) {
      expect(() => checkOutboundUrl(raw, false), raw).toThrow(OutboundRefusedError);
      expect(checkOutboundUrl(raw, true).href).toBe(new URL(raw).href);
    }
  });

  it('resolves names, refuses them when any address breaks the rule, and returns only checked addresses', async () => {
    const resolve = (allowPrivate: boolean, all: boolean) =>
      new Promise<unknown>((done) => {
        guardedLookup(allowPrivate)('localhost', { all }, (error, address) => { done(error ?? address); });
      });
    expect(await resolve(false, true)).toBeInstanceOf(OutboundRefusedError);
    expect(await resolve(false, false)).toBeInstanceOf(OutboundRefusedError);
    expect(await resolve(true, true)).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) as string })]));
    expect(await resolve(true, false)).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('sends nothing to a refused target, by name or by address; with OUTBOUND_ALLOW_PRIVATE it connects', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const strict = createOutboundAgents(false);
    const open = createOutboundAgents(true);
    try {
      const request = { method: 'POST', headers: {}, body: 'x', timeoutMs: 5000 };
      await expect(outboundRequest(strict, `http://127.0.0.1:${port}/a`, request)).rejects.toBeInstanceOf(OutboundRefusedError);
      await expect(outboundRequest(strict, `http://localhost:${port}/a`, request)).rejects.toBeInstanceOf(OutboundRefusedError);
      expect(requests).toBe(0);
      expect((await outboundRequest(open, `http://127.0.0.1:${port}/a`, request)).status).toBe(204);
      expect(requests).toBe(1);
    } finally {
      strict.destroy();
      open.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
