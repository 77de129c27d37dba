import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

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
        if (bytes.length < 1024) continue;
        const brotli = brotliCompressSync(bytes, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        writeFileSync(`${path}.br`, brotli);
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * The production build lands in dist/web, which the API server serves on the same origin.
 * React, React DOM and React Router go into one long-cached `react` chunk that every page
 * loads; each route is its own lazy chunk (web/src/app/routes.tsx).
 */
export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
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
