import { describe, expect, it } from 'vitest';
import { LOGIN_POLICY } from '#shared/constants.ts';
import { build } from '../app.ts';
import { nextIp } from './factories.ts';
import { MINUTE, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('per-IP rate limits', () => {
  it('are counted in the database: two instances on one database enforce one limit', async () => {
    const other = await build({ config: t.config, clock: t.clock });
    // Two instances in one process on one SQLite file: wait for the new one's start-up reminder
    // scan, which holds the write lock across awaits (a write of this instance would wait for it
    // on the thread the scan needs; two processes do not have that problem).
    await other.taskMail.idle();
    try {
      const ip = nextIp();
      const limit = LOGIN_POLICY.maxAttemptsPerIp;
      const instances = [t.app, other];
      for (let i = 0; i < limit; i++) {
        expect(await (instances[i % 2] ?? t.app).rateLimits.loginPerIp.hit(ip)).toBe(0);
      }
      const waitHere = await t.app.rateLimits.loginPerIp.hit(ip);
      const waitThere = await other.rateLimits.loginPerIp.hit(ip);
      expect(waitHere).toBeGreaterThan(0);
      expect(waitThere).toBeGreaterThan(0);
      expect(waitThere).toBeLessThanOrEqual(LOGIN_POLICY.windowMs);
      // Another address is not affected, and the window slides on the app's clock.
      expect(await other.rateLimits.loginPerIp.hit(nextIp())).toBe(0);
      t.clock.advance(LOGIN_POLICY.windowMs + MINUTE);
      expect(await other.rateLimits.loginPerIp.hit(ip)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
