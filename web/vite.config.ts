import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { catalogChunkName } from './src/app/pwa/catalog-files.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiPort = process.env.API_PORT ?? '3001';

/**
 * Writes `.br` and `.gz` next to every text asset of the build, at maximum compression, so a
 * static server can send them as they are (@fastify/static `preCompressed: true`) instead of
 * compressing on each request or not at all.
 *
 * It compresses the files as written to disk (`writeBundle`), not the chunks of
 * `generateBundle`: Vite's own generateBundle hooks still rewrite chunks after a plugin's
 * (e.g. the entry's `__vite__mapDeps` preload list replaces the `__VITE_PRELOAD__` marker), and
 * a compressed copy of the earlier code would be a different, broken script.
 */
function precompress(): Plugin {
  return {
    name: 'taskwise:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? fileURLToPath(new URL('../dist/web', import.meta.url));
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const path = join(outDir, fileName);
        const bytes = readFileSync(path);
        // Small files too: /login loads a dozen chunks under 1 KB, which compress to about half.
        // A copy is written only when it is smaller than the file.
        const brotli = brotliCompressSync(bytes, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        const gzip = gzipSync(bytes, { level: 9 });
        if (brotli.length < bytes.length) writeFileSync(`${path}.br`, brotli);
        if (gzip.length < bytes.length) writeFileSync(`${path}.gz`, gzip);
      }
    },
  };
}

/**
 * The web app manifest and the service worker (web/src/sw.ts, built to /sw.js with the precache
 * list injected; docs/decisions/078-service-worker-inject-manifest.md). The app registers the
 * worker itself (web/src/app/pwa/), after the page has loaded, so nothing is injected into
 * index.html; in development (`npm run dev`) there is no worker.
 */
function pwa() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    // The icons are listed in the manifest and matched by globPatterns below.
    includeManifestIcons: false,
    manifest: {
      id: '/',
      name: 'Taskwise',
      short_name: 'Taskwise',
      description: 'A self-hostable task board: assign tasks by e-mail, track them to done.',
      lang: 'en',
      start_url: '/tasks',
      scope: '/',
      display: 'standalone',
      // The light theme's brand colour and page background (web/src/styles/tokens.css
      // --brand-600 and --gray-50); index.html's theme-color follows the system's theme.
      theme_color: '#4b45e0',
      background_color: '#f6f7fb',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      // The app shell: every page, script, style sheet, font and icon of the build. Not the
      // .br/.gz copies (the browser asks the server for those itself), not source maps. The
      // plugin adds manifest.webmanifest itself.
      globPatterns: ['**/*.{html,js,css,svg,png,woff2}'],
      globIgnores: ['**/*.map'],
      // Hashed file names change with their content: no revision (and no cache-busting query) needed.
      dontCacheBustURLsMatching: /^assets\//,
    },
    devOptions: { enabled: false },
    integration: {
      // The worker's own Vite build: as quiet as the app's (scripts/lib/web-build.ts builds with
      // --logLevel warn), and one file through Rolldown's current option rather than the
      // deprecated `inlineDynamicImports` the plugin sets (it warns on every build).
      configureCustomSWViteBuild(config) {
        config.logLevel = 'warn';
        /* eslint-disable @typescript-eslint/no-deprecated -- replacing the names the plugin sets */
        const output = config.build?.rollupOptions?.output;
        if (output !== undefined && !Array.isArray(output)) {
          delete output.inlineDynamicImports;
          Object.assign(output, { codeSplitting: false });
        }
        /* eslint-enable @typescript-eslint/no-deprecated */
      },
    },
  });
}

/**
 * Modules by the chunk group they belong to, found once the module graph is complete
 * (`buildEnd`), from what a start file imports statically, whatever it imports in turn:
 * - `shell`: what the entry (src/main.tsx) runs before every page's first render;
 * - `signed-out`: what the signed-out pages (/login, /sign-up) add to it.
 * Each group is one chunk with one style sheet (the `groups` below). Left to itself, the bundler
 * splits out each module that a lazy chunk shares: /login then fetched 20 small scripts and 8
 * render-blocking style sheets before it could paint, each a request that a phone on a slow
 * network waits for in turn.
 */
const SHELL_START = ['/src/main.tsx'];
const SIGNED_OUT_START = ['/src/app/routes/login.tsx', '/src/app/routes/sign-up.tsx'];
const shellModules = new Set<string>();
const signedOutModules = new Set<string>();

function groupModules(): Plugin {
  return {
    name: 'taskwise:chunk-groups',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const closure = (starts: string[], into: Set<string>, skip: Set<string>) => {
        into.clear();
        const queue = ids.filter((id) => starts.some((start) => id.endsWith(start)));
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (into.has(id) || skip.has(id)) continue;
          into.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      closure(SHELL_START, shellModules, new Set());
      closure(SIGNED_OUT_START, signedOutModules, shellModules);
    },
  };
}

/**
 * The production build lands in dist/web, which the API server serves on the same origin.
 * React, React DOM and React Router go into one long-cached `react` chunk that every page
 * loads, the entry's own modules into `shell`, the signed-out pages' into `signed-out`
 * (`groupModules` above; docs/decisions/169-chunk-groups-and-a-sliced-first-render.md); each
 * signed-in route is its own lazy chunk (web/src/app/routes.tsx), and the app's own modules that
 * two or more lazy chunks import go into one `lazy-shared` chunk instead of a small chunk each
 * (docs/decisions/175-one-chunk-for-what-lazy-chunks-share.md). Library modules shared that way
 * stay where the bundler puts them: a library a lazy chunk imports on demand (the passkey one)
 * would otherwise be fetched by every signed-in page.
 */
export default defineConfig({
  root,
  // Lingui turns its macros (<Trans>, t`…`) into catalog lookups and compiles a `.po` catalog
  // when it is imported (web/src/app/i18n/, docs/i18n.md).
  plugins: [groupModules(), react(), lingui({ macroTransform: true, configPath: fileURLToPath(new URL('../lingui.config.ts', import.meta.url)) }), pwa(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // The language catalogs in a folder of their own, named by part and language, which the
        // service worker reads to cache each language's on demand (web/src/app/pwa/catalog-files.ts).
        chunkFileNames: (chunk) => catalogChunkName(chunk.facadeModuleId) ?? 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 },
            { name: 'shell', test: (id) => shellModules.has(id), priority: 2 },
            { name: 'signed-out', test: (id) => signedOutModules.has(id), priority: 1 },
            { name: 'lazy-shared', test: /[\\/]web[\\/]src[\\/]/, minShareCount: 2, priority: 0 },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  preview: { host: '127.0.0.1' },
});
