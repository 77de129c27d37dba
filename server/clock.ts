/**
 * The one source of "now" for every time rule (OTP expiry and cooldowns, login lock-out windows,
 * per-IP counters, session expiry and sliding, deadline-not-in-the-past). `build()` takes one and
 * decorates it as `fastify.clock`, so tests move time forward instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

declare module 'fastify' {
  interface FastifyInstance {
    /** Decorated once by `build()`; every plugin and route reads "now" from here. */
    clock: Clock;
  }
}
