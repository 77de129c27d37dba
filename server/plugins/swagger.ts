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
            '`{status:"error", code, message}` (5xx). Signed-in calls use the `taskwise_session` cookie set by `POST /api/users/login`.',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'taskwise_session' },
            metricsToken: { type: 'http', scheme: 'bearer' },
          },
        },
      },
    });

    const secure = fastify.config.secureCookies;
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
