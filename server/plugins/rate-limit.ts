import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { BOARD_POLICY, LOGIN_POLICY, OTP_POLICY } from '#shared/constants.ts';
import type { FastifyInstance } from 'fastify';
import { HOUR } from '../clock.ts';
import { newId } from '../db/ids.ts';
import { createRateLimitHitsRepository } from '../repositories/rate-limit-hits-repository.ts';

/**
 * The client a per-IP limit counts. An IPv6 host usually holds a whole /64 (SLAAC, privacy
 * addresses, a /64 per subscriber), so its addresses share one budget; IPv4 counts per address,
 * also when the socket shows it IPv4-mapped (`::ffff:a.b.c.d`, a dual-stack listener). Parsed by
 * ipaddr.js, the parser Fastify's proxy-addr uses for the same addresses; anything it cannot parse
 * counts as itself.
 */
export function clientBucket(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * Sliding-window attempt counter per key, on the app's clock so tests can move time. Counted in
 * the database, so N instances sharing it enforce one limit: each attempt takes the key's
 * throttle lock (serializing the count-then-insert across requests and instances), counts the
 * hits inside the window and records the new one.
 * (@fastify/rate-limit is not used because it reads the wall clock, not the app's clock, and
 * keeps its counts per process unless given a store.)
 */
export class WindowCounter {
  readonly #name: string;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #fastify: FastifyInstance;
  readonly #keyOf: (key: string) => string;

  /** `keyOf` maps what callers pass (e.g. an IP address) to the key that is counted. */
  constructor(fastify: FastifyInstance, name: string, limit: number, windowMs: number, keyOf: (key: string) => string = (key) => key) {
    this.#fastify = fastify;
    this.#name = name;
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#keyOf = keyOf;
  }

  /**
   * Counts one attempt for `key`. Resolves to 0 when it is allowed, else the milliseconds until
   * the oldest attempt in the window expires (a refused attempt is not counted).
   */
  async hit(key: string): Promise<number> {
    return (await this.attempt(key)).waitMs;
  }

  /**
   * `hit`, also naming the recorded attempt (null when refused), so that an attempt which turns
   * out not to count (a right one-time code) can be taken back with `refund`.
   */
  async attempt(key: string): Promise<{ waitMs: number; hitId: string | null }> {
    const { db, clock, throttleLocksRepository: locks } = this.#fastify;
    const hits = createRateLimitHitsRepository(db);
    const scoped = `${this.#name}:${this.#keyOf(key)}`;
    const now = clock.now();
    const nowMs = now.getTime();
    const nowIso = now.toISOString();
    return db.transaction().execute(async (trx) => {
      await locks.take(`rate:${scoped}`, nowIso, trx);
      const { count, oldest } = await hits.window(scoped, new Date(nowMs - this.#windowMs).toISOString(), trx);
      if (count >= this.#limit && oldest !== null) return { waitMs: Math.max(1, Date.parse(oldest) + this.#windowMs - nowMs), hitId: null };
      const hitId = newId();
      await hits.insert({ id: hitId, key: scoped, hitAt: nowIso }, trx);
      return { waitMs: 0, hitId };
    });
  }

  async refund(hitId: string): Promise<void> {
    await createRateLimitHitsRepository(this.#fastify.db).delete(hitId);
  }
}

export interface RateLimits {
  otpPerIp: WindowCounter;
  loginPerIp: WindowCounter;
  /** Member additions per account (each sends a mail), across boards. */
  memberAdditions: WindowCounter;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

export default fp(
  (fastify, _opts, done) => {
    fastify.decorate('rateLimits', {
      otpPerIp: new WindowCounter(fastify, 'otp-ip', OTP_POLICY.maxPerIpPerHour, HOUR, clientBucket),
      loginPerIp: new WindowCounter(fastify, 'login-ip', LOGIN_POLICY.maxAttemptsPerIp, LOGIN_POLICY.windowMs, clientBucket),
      memberAdditions: new WindowCounter(fastify, 'board-member-add', BOARD_POLICY.maxMemberAdditionsPerHour, HOUR),
    });
    done();
  },
  { name: 'rate-limit', dependencies: ['db', 'repositories'] },
);
