import fp from 'fastify-plugin';
import { LOGIN_POLICY, OTP_POLICY } from '#shared/constants.ts';
import type { Clock } from '../clock.ts';

/**
 * Sliding-window attempt counter per key (an IP address), on the app's clock so tests can move
 * time. Kept in memory on purpose: per-IP limits are a per-instance flood guard, and losing
 * them on restart is harmless. The limits that must hold across instances (per e-mail OTP
 * requests, per e-mail login failures) live in the database instead.
 * (@fastify/rate-limit is not used because it reads the wall clock, not the app's clock.)
 */
export class WindowCounter {
  readonly #hits = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  #nextSweep = 0;

  constructor(limit: number, windowMs: number, clock: Clock) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#clock = clock;
  }

  /**
   * Counts one attempt for `key`. Returns 0 when it is allowed, else the milliseconds until the
   * oldest attempt in the window expires (a refused attempt is not counted).
   */
  hit(key: string): number {
    const now = this.#clock.now().getTime();
    const windowStart = now - this.#windowMs;
    this.#sweep(now, windowStart);
    const times = (this.#hits.get(key) ?? []).filter((t) => t > windowStart);
    const oldest = times[0];
    if (times.length >= this.#limit && oldest !== undefined) {
      this.#hits.set(key, times);
      return oldest + this.#windowMs - now;
    }
    times.push(now);
    this.#hits.set(key, times);
    return 0;
  }

  /** Forget keys whose every attempt has left the window, at most once per window. */
  #sweep(now: number, windowStart: number): void {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + this.#windowMs;
    for (const [key, times] of this.#hits) {
      if ((times.at(-1) ?? 0) <= windowStart) this.#hits.delete(key);
    }
  }
}

export interface RateLimits {
  otpPerIp: WindowCounter;
  loginPerIp: WindowCounter;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

const HOUR = 60 * 60_000;

export default fp(
  (fastify, _opts, done) => {
    fastify.decorate('rateLimits', {
      otpPerIp: new WindowCounter(OTP_POLICY.maxPerIpPerHour, HOUR, fastify.clock),
      loginPerIp: new WindowCounter(LOGIN_POLICY.maxAttemptsPerIp, LOGIN_POLICY.windowMs, fastify.clock),
    });
    done();
  },
  { name: 'rate-limit' },
);
