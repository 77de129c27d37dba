import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { registrationMessage } from '#shared/registration.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { RegistrationEnvelope, RequestOtpBody } from '#shared/schemas/users.ts';
import { checkEmail } from '#shared/validation.ts';
import { checkMayRegister } from '../../services/registration.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable } from '../schemas.ts';
import { requestLanguage, translateFor } from '../../i18n/request-language.ts';

const otps: FastifyPluginAsyncTypebox = (fastify) => {
  fastify.post(
    '/otps',
    {
      schema: {
        tags: ['users'],
        summary: 'Mail a one-time sign-up code',
        description:
          'Always 201 for a valid address that may register, whether or not it has an account (the mail differs). ' +
          'Where sign-up is not open to it (REGISTRATION, REGISTRATION_DOMAINS; see GET /api/registration): 403 REGISTRATION_CLOSED saying why, ' +
          'the same whether or not the address has an account, and no mail. ' +
          'One request per address per 60 s, 5 per address per hour, 30 per IP per hour: 429 with Retry-After.',
        body: RequestOtpBody,
        response: { 201: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = checkFields({ email: checkEmail(request.body.email) });
      await checkMayRegister(fastify.config.registration, fastify, email);
      await fastify.otpService.request(email, request.ip, 'register', requestLanguage(request));
      return reply.code(201).send({ status: 'success', message: translateFor(request, SERVER_MESSAGES.otpSent) });
    },
  );

  fastify.get(
    '/registration',
    {
      schema: {
        tags: ['users'],
        summary: 'Who may register on this server',
        description:
          '`mode`: open (anyone), invite (addresses invited to a board) or closed (accounts are made by the admin command); `domains`: the only ' +
          'domains whose addresses may register (empty: any); `message`: what the sign-up page shows, null when anyone may register. No session needed.',
        response: { 200: serializable(RegistrationEnvelope), ...errorResponses },
      },
    },
    (request) => {
      const policy = fastify.config.registration;
      const said = registrationMessage(policy);
      const message = said === null ? null : translateFor(request, said);
      return { status: 'success' as const, data: { registration: { mode: policy.mode, domains: [...policy.domains], message } } };
    },
  );
  return Promise.resolve();
};

export default otps;
