import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isOidcErrorCode, OIDC_ERROR_MESSAGES, OIDC_MESSAGES } from '#shared/oidc.ts';
import { registrationMessage } from '#shared/registration.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { IdentitiesEnvelope, LinkEnvelope, ProviderParams, ProvidersEnvelope, ProvidersQuery, StartQuery } from '#shared/schemas/oidc.ts';
import { AppError } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import { hasPassword } from '../../services/passwords.ts';
import { OidcFlowError, safeReturnPath } from '../../services/oidc-sign-in.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { checkSignInMethodsLeft, lockSignInMethods } from '../../services/sign-in-methods.ts';
import { translateFor } from '../../i18n/request-language.ts';

const notFound = () => new AppError(404, 'NOT_FOUND', OIDC_ERROR_MESSAGES.oidc_unknown);
const redirectSchema = { 302: Type.Null({ description: 'To the provider, or back to the app.' }) };

/**
 * Sign-in with OpenID Connect providers (OIDC_PROVIDERS), and linking them on the account page.
 * The browser is sent to these routes and back with redirects: every failure of a sign-in
 * lands on /login?error=CODE (a link's on /account?oidcError=CODE), never on a JSON answer.
 */
const oidcRoutes: FastifyPluginAsyncTypebox = (fastify) => {
  const { oidc, config, identitiesRepository: identities } = fastify;
  const errorPage = (error: OidcFlowError) => (error.purpose === 'link' ? `/account?oidcError=${error.code}` : `/login?error=${error.code}`);

  fastify.get(
    '/auth/providers',
    {
      schema: {
        tags: ['users'],
        summary: 'The sign-in providers of this server',
        description: 'Each gives "Sign in with <name>" (a link to /api/auth/oidc/{id}/start). With `error`, `data.error` is its text for the sign-in page. No session needed.',
        querystring: ProvidersQuery,
        response: { 200: serializable(ProvidersEnvelope), ...errorResponses },
      },
    },
    (request) => {
      const code = request.query.error ?? '';
      const said = !isOidcErrorCode(code) ? null : code === 'registration_closed' ? (registrationMessage(config.registration) ?? OIDC_ERROR_MESSAGES[code]) : OIDC_ERROR_MESSAGES[code];
      const error = said === null ? null : translateFor(request, said);
      return Promise.resolve({ status: 'success' as const, data: { providers: oidc.providers.map(({ id, name }) => ({ id, name })), error } });
    },
  );

  fastify.get(
    '/auth/oidc/:provider/start',
    {
      schema: {
        tags: ['users'],
        summary: 'Sign in with a provider: redirects the browser to it',
        description: 'Starts the authorization code flow (PKCE, state, nonce) and sets a 10-minute cookie binding it to this browser. A provider that cannot be reached: to /login?error=oidc_unavailable.',
        params: ProviderParams,
        querystring: StartQuery,
        response: { ...redirectSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = oidc.providerOf(request.params.provider);
      if (provider === undefined) return reply.redirect('/login?error=oidc_unknown', 302);
      try {
        const url = await oidc.start(request, reply, provider, { kind: 'sign-in', returnTo: safeReturnPath(request.query.returnTo, config.appOrigin) });
        return await reply.redirect(url, 302);
      } catch (error) {
        if (error instanceof OidcFlowError) return reply.redirect(errorPage(error), 302);
        throw error;
      }
    },
  );

  fastify.get(
    '/auth/oidc/:provider/callback',
    {
      schema: {
        tags: ['users'],
        summary: 'Where the provider sends the browser back',
        description:
          'Checks the answer against the flow this browser started (state, nonce, PKCE; once, within 10 minutes), then signs in (session cookie) ' +
          'and redirects to /login?next=<the path the sign-in started from>#signed-in (the web app goes on from there); an account with two-step sign-in goes to /login#second-step=TOKEN instead. ' +
          'Any failure: /login?error=CODE (GET /api/auth/providers?error=CODE has its text), no session, nothing created. Counts against the per-IP sign-in limit.',
        params: ProviderParams,
        querystring: Type.Record(Type.String(), Type.String()),
        response: { ...redirectSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = oidc.providerOf(request.params.provider);
      if (provider === undefined) return reply.redirect('/login?error=oidc_unknown', 302);
      try {
        const outcome = await oidc.finish(request, reply, provider, request.query);
        if (outcome.kind === 'second-step') return await reply.redirect(`/login#second-step=${outcome.token}`, 302);
        if (outcome.kind === 'linked') return await reply.redirect(`/account?oidcLinked=${outcome.providerId}`, 302);
        // The web app learns of the session on its sign-in page (`#signed-in`), which then goes on to the return path.
        const next = outcome.returnTo === '/' ? '' : `?next=${encodeURIComponent(outcome.returnTo)}`;
        return await reply.redirect(`/login${next}#signed-in`, 302);
      } catch (error) {
        if (error instanceof OidcFlowError) return reply.redirect(errorPage(error), 302);
        throw error;
      }
    },
  );

  const accountOnly = { apiTokens: 'forbidden' } as const;

  fastify.get(
    '/account/identities',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'The sign-in providers linked to my account',
        description: '`identities`: the providers linked, with the address each gave; `providers`: every provider of this server; `hasPassword`: whether a password signs in too.',
        security: sessionSecurity,
        response: { 200: serializable(IdentitiesEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = currentUser(request);
      const rows = await identities.listOf(id);
      const user = await fastify.usersRepository.findById(id);
      const nameOf = (providerId: string) => oidc.providerOf(providerId)?.name ?? providerId;
      return {
        status: 'success' as const,
        data: {
          identities: rows.map((row) => ({ ...row, providerName: nameOf(row.providerId) })),
          providers: oidc.providers.map(({ id: providerId, name }) => ({ id: providerId, name })),
          hasPassword: user !== undefined && hasPassword(user.passwordHash),
        },
      };
    },
  );

  fastify.post(
    '/account/identities/:provider',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Link a provider to my account: answers the provider\'s page to go to',
        description: 'Sets the 10-minute flow cookie; the provider sends the browser back to /account?oidcLinked={id} (or /account?oidcError=CODE).',
        security: sessionSecurity,
        params: ProviderParams,
        response: { 200: serializable(LinkEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = oidc.providerOf(request.params.provider);
      if (provider === undefined) throw notFound();
      try {
        const url = await oidc.start(request, reply, provider, { kind: 'link', userId: currentUser(request).id, returnTo: '/account' });
        return { status: 'success' as const, data: { url } };
      } catch (error) {
        if (error instanceof OidcFlowError) throw new AppError(error.code === 'rate_limited' ? 429 : 503, error.code === 'rate_limited' ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', OIDC_ERROR_MESSAGES[error.code]);
        throw error;
      }
    },
  );

  fastify.delete(
    '/account/identities/:provider',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Unlink a provider from my account',
        description: '409 LAST_SIGN_IN_METHOD when it is the last way to sign in (no password, no other provider); 404 when it is not linked.',
        security: sessionSecurity,
        params: ProviderParams,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = currentUser(request);
      const providerId = request.params.provider;
      await fastify.db.transaction().execute(async (trx) => {
        await lockSignInMethods(fastify, id, trx);
        const linked = (await identities.listOf(id, trx)).filter((row) => row.providerId === providerId).length;
        if (linked === 0) throw new AppError(404, 'NOT_FOUND', OIDC_MESSAGES.notLinked);
        await identities.unlink(id, providerId, trx);
        await checkSignInMethodsLeft(fastify, id, trx);
      });
      return { status: 'success' as const, message: translateFor(request, OIDC_MESSAGES.unlinked) };
    },
  );

  return Promise.resolve();
};

export default oidcRoutes;
