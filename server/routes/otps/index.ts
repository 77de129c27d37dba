import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { RequestOtpBody } from '#shared/schemas/users.ts';
import { checkEmail } from '#shared/validation.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable } from '../schemas.ts';

const otps: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.post(
    '/otps',
    {
      schema: {
        tags: ['users'],
        summary: 'Mail a one-time sign-up code',
        description:
          'Always 201 for a valid address, whether or not it has an account (the mail differs). ' +
          'One request per address per 60 s, 5 per address per hour, 30 per IP per hour: 429 with Retry-After.',
        body: RequestOtpBody,
        response: { 201: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = checkFields({ email: checkEmail(request.body.email) });
      await fastify.otpService.request(email, request.ip);
      return reply.code(201).send({ status: 'success', message: SERVER_MESSAGES.otpSent });
    },
  );
  return Promise.resolve();
};

export default otps;
