import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { AppError } from '../errors.ts';

/**
 * Security headers, CORS for CORS_ORIGINS, and the CSRF rules of SPEC section 3:
 * - request bodies are JSON only: every other content type (text/plain, forms, multipart — the
 *   kinds a foreign page can send without a CORS preflight) is answered 415 by Fastify because
 *   no parser is registered for it;
 * - a request whose `Origin` is neither its own origin, APP_ORIGIN, nor in CORS_ORIGINS is 403.
 */
export default fp(
  async (fastify) => {
    const { appOrigin, corsOrigins, secureCookies } = fastify.config;

    await fastify.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The web app is a Vite build: module scripts from files, no inline scripts.
          scriptSrc: ["'self'"],
          // React's style props go through CSSOM, which CSP does not restrict; no inline <style>.
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(secureCookies ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // HSTS only means something over https.
      strictTransportSecurity: secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });

    if (corsOrigins.length > 0) {
      await fastify.register(cors, {
        origin: corsOrigins,
        credentials: true,
        methods: ['GET', 'POST', 'PATCH', 'DELETE'],
        maxAge: 600,
      });
    }

    // JSON is the only accepted body. An empty body is "no body" (e.g. a POST logout from a
    // client that always sets Content-Type); schema validation decides whether one was needed.
    const parseJson = fastify.getDefaultJsonParser('error', 'error');
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '') {
        done(null, undefined);
        return;
      }
      void parseJson(request, body as string, done);
    });

    const allowed = new Set([appOrigin, ...corsOrigins]);
    const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
    fastify.addHook('onRequest', (request, _reply, done) => {
      const origin = request.headers.origin;
      if (origin === undefined || allowed.has(origin) || origin === ownOrigin(request)) {
        done();
        return;
      }
      done(new AppError(403, 'FORBIDDEN_ORIGIN', SERVER_MESSAGES.forbiddenOrigin));
    });
  },
  { name: 'security', dependencies: ['config'] },
);
