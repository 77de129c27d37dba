/**
 * The one source of "now" for every time rule (OTP expiry and cooldowns, login lock-out windows,
 * per-IP counters, session expiry and sliding, deadline-not-in-the-past). `build()` takes one and
 * decorates it as `fastify.clock`, so tests move time forward instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

/** Durations in milliseconds, for the rules that read the clock. */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const systemClock: Clock = { now: () => new Date() };

declare module 'fastify' {
  interface FastifyInstance {
    /** Decorated once by `build()`; every plugin and route reads "now" from here. */
    clock: Clock;
  }
}
