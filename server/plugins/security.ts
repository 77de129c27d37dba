import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import helmet from 'helmet';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { text } from '#shared/i18n.ts';
import { AppError, validationFailed, type FieldError } from '../errors.ts';
import { bearerOf } from '../services/api-tokens.ts';
import type { Config } from '../config.ts';

/**
 * The security headers of every answer (docs/SECURITY.md), computed once by helmet from our
 * options. (@fastify/helmet would build a new helmet middleware, re-parsing the CSP, on every
 * request; the headers are static, so we apply the same ones as a precomputed map — also to
 * answers Fastify gives before any hook runs, such as a malformed URL.)
 */
export function securityHeaders(config: Pick<Config, 'httpsOrigin'>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a header map
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({
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
        // The service worker (/sw.js) and the web app manifest, both from our own origin.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.httpsOrigin ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only means something over https.
    strictTransportSecurity: config.httpsOrigin ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  // helmet only ever sets and removes headers on the response.
  middleware(Object.create(null) as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return Object.freeze(headers);
}

/**
 * Text a database would refuse or store differently from what was sent is refused up front
 * (400 naming the field): NUL characters (PostgreSQL rejects them in text) and lone UTF-16
 * surrogates (not Unicode; stored as U+FFFD). Iterative, so deep nesting cannot exhaust the stack.
 */
function checkStrings(root: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const check = (value: string, path: string): void => {
    const field = path === '' ? 'body' : path;
    if (value.includes('\u0000')) errors.push({ field, message: text('Text must not contain NUL characters.') });
    else if (!value.isWellFormed()) errors.push({ field, message: text('Text must be valid Unicode.') });
  };
  if (typeof root === 'string') check(root, '');
  const stack: { node: Record<string, unknown> | unknown[]; path: string }[] = [];
  if (typeof root === 'object' && root !== null) stack.push({ node: root as Record<string, unknown>, path: '' });
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, path } = item;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, value] of entries) {
      const childPath = path === '' ? String(key) : `${path}.${String(key)}`;
      if (typeof value === 'string') {
        check(value, childPath);
      } else if (typeof value === 'object' && value !== null) {
        stack.push({ node: value as Record<string, unknown>, path: childPath });
      }
    }
  }
  return errors;
}

/**
 * Security headers, CORS for CORS_ORIGINS, and the CSRF rules (docs/SECURITY.md):
 * - request bodies are JSON only: every other content type (text/plain, forms, multipart — the
 *   kinds a foreign page can send without a CORS preflight) is answered 415 by Fastify because
 *   no parser is registered for it;
 * - a request whose `Origin` is neither its own origin, APP_ORIGIN, nor in CORS_ORIGINS is 403 —
 *   unless it carries `Authorization: Bearer` (an API token): such a request is signed in by the
 *   token alone, its cookie is never read (plugins/session.ts), and a browser cannot add that
 *   header to a cross-site request without a CORS preflight we do not grant, so there is no
 *   ambient credential for a foreign page to ride on.
 */
export default fp(
  async (fastify) => {
    const { appOrigin, corsOrigins } = fastify.config;
    const headers = securityHeaders(fastify.config);

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
      void parseJson(request, body as string, (error, parsed) => {
        if (error !== null) {
          done(error, undefined);
          return;
        }
        const errors = checkStrings(parsed);
        if (errors.length > 0) done(validationFailed(errors), undefined);
        else done(null, parsed);
      });
    });

    const allowed = new Set([appOrigin, ...corsOrigins]);
    const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
      const origin = request.headers.origin;
      if (origin === undefined || allowed.has(origin) || origin === ownOrigin(request) || bearerOf(request.headers.authorization) !== undefined) {
        done();
        return;
      }
      done(new AppError(403, 'FORBIDDEN_ORIGIN', SERVER_MESSAGES.forbiddenOrigin));
    });
  },
  { name: 'security', dependencies: ['config'] },
);
