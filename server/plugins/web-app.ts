import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { sendApiNotFound } from './error-handler.ts';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Taskwise</title></head>
<body>
<h1>Taskwise</h1>
<p>The web app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload this page.</p>
<p>The API is running: see <a href="/api/docs">/api/docs</a>.</p>
</body>
</html>
`;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route for paths no real route has: the metrics count it as `unmatched`. */
    catchAll?: boolean;
  }
}

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

const wantsHtml = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');

/**
 * Serves the Vite build (dist/web) at `/`: hashed files under /assets/ are cached for a year,
 * everything else is revalidated — notably /sw.js, so the browser sees a new service worker as
 * soon as one is deployed, and manifest.webmanifest (sent as application/manifest+json). Any other GET that accepts HTML and is not under /api gets
 * index.html, so deep links such as /tasks survive a reload. @fastify/static (send) refuses
 * paths that leave the root. Without a build, HTML requests get a page saying so.
 */
export default fp(
  async (fastify) => {
    const root = fastify.config.webRoot;
    const built = existsSync(join(root, 'index.html'));

    if (built) {
      await fastify.register(fastifyStatic, {
        root,
        prefix: '/',
        index: 'index.html',
        // /api is never a file, even if the build held such a folder.
        allowedPath: (pathName) => !isApiPath(pathName),
        // Dot files do not exist as far as anyone asking can tell (404, not 403).
        dotfiles: 'ignore',
        cacheControl: false,
        // The build writes .br and .gz next to each text asset (web/vite.config.ts): send those to
        // clients that accept them. The JS of /login is ~300 KB as is, ~90 KB brotli; on a slow
        // mobile link that is most of the first paint (bench/RESULTS.md, Lighthouse).
        preCompressed: true,
        setHeaders: (reply, path) => {
          const immutable = path.startsWith(join(root, 'assets'));
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      fastify.log.warn(`The web app is not built (${join(root, 'index.html')} is missing): run \`npm run build\`.`);
    }

    // Unknown /api paths are answered here, before the static files' wildcard route: that one
    // checks a path's spelling against the directory listings of the build before it gives up,
    // about 0.7 ms of file-system calls per unknown API request.
    for (const url of ['/api', '/api/*']) {
      fastify.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url, schema: { hide: true }, config: { catchAll: true }, handler: (_request, reply) => sendApiNotFound(reply) });
    }

    fastify.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      if (isApiPath(request.url) || !wantsHtml(request)) return sendApiNotFound(reply);
      reply.code(200).header('cache-control', 'no-cache');
      if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      return reply.sendFile('index.html');
    });
  },
  { name: 'web-app', dependencies: ['config', 'error-handler'] },
);
