/**
 * `npm run build`: builds the web app into dist/web. `npm start` runs it with `--if-stale`,
 * which skips the build when dist/web was built from the current sources (scripts/lib/web-build.ts).
 */
import { buildWeb, ensureWebBuild } from './lib/web-build.ts';

if (process.argv.includes('--if-stale')) {
  ensureWebBuild((state) => {
    process.stdout.write(state === 'missing' ? 'Building the web app (first start)…\n' : 'Rebuilding the web app (its sources changed)…\n');
  });
} else {
  buildWeb();
}
