import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { prometheusContentType } from 'prom-client';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { AppError } from '../errors.ts';
import { sendApiNotFound } from '../plugins/error-handler.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` (outside /api, where Prometheus looks by default): what plugins/metrics.ts
 * gathered, only with `Authorization: Bearer <METRICS_TOKEN>`. Comparing digests keeps the
 * comparison constant-time whatever the header's length.
 */
const metrics: FastifyPluginAsyncTypebox = (fastify) => {
  const token = fastify.config.metricsToken;
  const expected = token === null ? null : digest(`Bearer ${token}`);
  fastify.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Prometheus text format: request counts and latency per route and status, the database pool (PostgreSQL), ' +
          'open event streams, pending mails and the process metrics. Served only when the server has METRICS_TOKEN ' +
          'set and the request carries `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); 404 when it is not set.',
        security: [{ metricsToken: [] }],
      },
    },
    async (request, reply) => {
      if (expected === null) return sendApiNotFound(reply);
      const given = request.headers.authorization;
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        throw new AppError(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated, undefined, {
          'www-authenticate': 'Bearer realm="metrics"',
        });
      }
      const body = await fastify.metrics.render();
      return reply.header('cache-control', 'no-store').type(prometheusContentType).send(body);
    },
  );
  return Promise.resolve();
};

export default metrics;
