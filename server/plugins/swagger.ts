import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * The OpenAPI 3 document is generated from the route schemas (registered after this plugin) and
 * served at /api/openapi.json; the browsable page is /api/docs.
 */
export default fp(
  async (fastify) => {
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Taskwise API',
          version: '1.0.0',
          description:
            'JSend envelopes: `{status:"success", message?, data?}`, `{status:"fail", code, message, errors?}` (4xx), ' +
            '`{status:"error", code, message}` (5xx). Signed-in calls use the `taskwise_session` cookie set by `POST /api/users/login`, ' +
            'or a personal API token (`Authorization: Bearer tw_…`, made on the account page or with `POST /api/tokens`): ' +
            'a Bearer call needs no cookie and no Origin; a `read` token may only GET (403 TOKEN_READ_ONLY); calls ' +
            'whose security lists only `session` refuse every token (403 TOKEN_NOT_ALLOWED); a bad, revoked or expired token is 401.',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'taskwise_session' },
            metricsToken: { type: 'http', scheme: 'bearer' },
            apiToken: { type: 'http', scheme: 'bearer', description: 'A personal API token, `tw_…`.' },
          },
        },
      },
      // A signed-in call also takes an API token, unless its route refuses them: the document
      // follows the routes' own `apiTokens` setting (plugins/session.ts).
      transform: ({ schema, url, route }) => {
        const security = schema.security;
        if (security === undefined || route.config?.apiTokens === 'forbidden' || !security.some((s) => 'session' in s)) return { schema, url };
        return { schema: { ...schema, security: [...security, { apiToken: [] }] }, url };
      },
    });

    const secure = fastify.config.httpsOrigin;
    await fastify.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Over plain http (local use), upgrading sub-requests to https would break the page.
      transformStaticCSP: (header) => (secure ? header : header.replace(/upgrade-insecure-requests;?/, '')),
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });

    fastify.get('/api/openapi.json', { schema: { hide: true } }, () => fastify.swagger());
  },
  { name: 'swagger', dependencies: ['config'] },
);
