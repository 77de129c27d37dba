import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { ErrorEnvelope, HealthEnvelope } from '#shared/schemas/common.ts';
import { ping } from '../db/ping.ts';
import { AppError } from '../errors.ts';
import { serializable } from './schemas.ts';

const PING_TIMEOUT_MS = 3000;

/** 200 when the database answers `select 1` within 3 s, else 503 (for load balancers and e2e). */
const health: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Is the service able to answer?',
        description: '200 `{database:"ok"}` when the database answers `select 1` within 3 s, else 503 SERVICE_UNAVAILABLE. No session needed; for load balancers and uptime checks.',
        response: { 200: serializable(HealthEnvelope), 503: serializable(ErrorEnvelope) },
      },
    },
    async (request) => {
      try {
        await ping(fastify.db, PING_TIMEOUT_MS);
      } catch (error) {
        request.log.warn({ err: error }, 'Health check: the database did not answer');
        throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
      }
      return { status: 'success', data: { database: 'ok' } } as const;
    },
  );
  return Promise.resolve();
};

export default health;
