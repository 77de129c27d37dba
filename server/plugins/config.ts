import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** Decorates `fastify.config` with the configuration `loadConfig` (server/config.ts) parsed. */
export default fp<{ config: Config }>(
  (fastify, opts, done) => {
    fastify.decorate('config', opts.config);
    done();
  },
  { name: 'config' },
);
