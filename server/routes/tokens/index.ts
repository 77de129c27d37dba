import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  checkTokenName,
  CreatedTokenEnvelope,
  CreateTokenBody,
  TOKEN_MESSAGES,
  TOKEN_POLICY,
  TokenListEnvelope,
  TokenParams,
  type ApiToken,
} from '#shared/schemas/tokens.ts';
import { newId } from '../../db/ids.ts';
import { AppError, notAuthenticated } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import type { TokenRow } from '../../repositories/api-tokens-repository.ts';
import { hashTokenSecret, newTokenSecret } from '../../services/api-tokens.ts';
import { DAY } from '../../clock.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

const toJson = (row: TokenRow): ApiToken => ({
  _id: row.id,
  name: row.name,
  access: row.access,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
});

/**
 * Personal API tokens: a person's own, managed only when signed in with a session (a token
 * cannot make, list or revoke tokens). Bearer sign-in itself is in plugins/session.ts.
 */
const tokens: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock, sessions } = fastify;
  const repo = fastify.apiTokensRepository;
  // Only with a session: a leaked token must not be able to mint more, or hide by revoking.
  const config = { apiTokens: 'forbidden' } as const;

  fastify.get(
    '/tokens',
    {
      onRequest: fastify.authenticate,
      config,
      schema: {
        tags: ['tokens'],
        summary: 'My API tokens, newest first',
        description: 'Never their secrets (only a hash is stored). Expired tokens stay listed (and count toward the limit) until revoked.',
        security: sessionSecurity,
        response: { 200: serializable(TokenListEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await repo.listFor(currentUser(request).id);
      return { status: 'success', data: { tokens: rows.map(toJson) } } as const;
    },
  );

  fastify.post(
    '/tokens',
    {
      onRequest: fastify.authenticate,
      config,
      schema: {
        tags: ['tokens'],
        summary: 'Create an API token; its secret is in this answer only',
        description:
          `\`name\` trimmed, 1 to ${TOKEN_POLICY.nameMaxLength} characters; \`access\` \`read\` (GET only) or \`write\`; ` +
          `\`expiresInDays\` 1 to ${TOKEN_POLICY.expiresInDaysMax}, absent or null: never. The secret (\`tw_\` and 43 characters) is ` +
          `sent as \`Authorization: Bearer <secret>\`. At most ${TOKEN_POLICY.perUser} per account: past that, 409 LIMIT_REACHED.`,
        security: sessionSecurity,
        body: CreateTokenBody,
        response: { 201: serializable(CreatedTokenEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { name } = checkFields({ name: checkTokenName(request.body.name) });
      const now = clock.now();
      const days = request.body.expiresInDays;
      const secret = newTokenSecret();
      const row = {
        id: newId(),
        name,
        access: request.body.access,
        createdAt: now.toISOString(),
        expiresAt: days === undefined || days === null ? null : new Date(now.getTime() + days * DAY).toISOString(),
        lastUsedAt: null,
      };
      const outcome = await fastify.db
        .transaction()
        .execute((trx) => repo.create({ ...row, userId: user.id, secretHash: hashTokenSecret(secret) }, TOKEN_POLICY.perUser, trx));
      if (outcome === undefined) throw notAuthenticated();
      if (outcome === 'full') throw new AppError(409, 'LIMIT_REACHED', TOKEN_MESSAGES.tooMany);
      request.log.info({ tokenId: row.id, access: row.access }, 'API token created');
      return reply.code(201).send({ status: 'success', data: { token: toJson(row), secret } });
    },
  );

  fastify.delete(
    '/tokens/:id',
    {
      onRequest: fastify.authenticate,
      config,
      schema: {
        tags: ['tokens'],
        summary: 'Revoke one of my API tokens: 204',
        description: 'It stops working at once; event streams opened with it end. Someone else\'s token, or an unknown id: 404.',
        security: sessionSecurity,
        params: TokenParams,
        response: { 204: Type.Null({ description: 'Revoked; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await sessions.revokeToken(currentUser(request).id, request.params.id))) throw new AppError(404, 'NOT_FOUND', TOKEN_MESSAGES.notFound);
      request.log.info({ tokenId: request.params.id }, 'API token revoked');
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default tokens;
