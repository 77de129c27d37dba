/**
 * The language catalogs as the service worker keeps them
 * (docs/decisions/185-other-languages-cached-on-demand.md).
 *
 * Every catalog is a chunk of its own, named by web/vite.config.ts
 * `assets/catalogs/<public|app>-<language>.<hash>.js`. The worker precaches English's (the
 * fallback) with the app shell; another language's two catalogs are cached when that language is
 * used: the one this device speaks at the worker's installation (offline-language.ts), and any
 * other once it is loaded through the worker. Precaching every language's made the installation
 * (and every update) download 79 files, 790 KB brotli, of which 326 KB were catalogs.
 *
 * Used by the worker (web/src/sw.ts), the build (web/vite.config.ts) and the browser tests:
 * names only, nothing of a browser's.
 */

/** Where the build puts the catalogs, under the web root. */
const CATALOG_DIR = 'assets/catalogs';

/** The worker's cache of the catalogs of languages other than English. */
export const CATALOG_CACHE = 'taskwise-catalogs';

const CATALOG_MODULE = /[\\/]web[\\/]src[\\/]locales[\\/](public|app)[\\/]([^\\/.]+)\.po(?:\?.*)?$/;
const CATALOG_FILE = /(?:^|\/)assets\/catalogs\/(public|app)-([^./]+)\.[^/]+\.js$/;

/** The chunk file name pattern of a catalog module (`…/web/src/locales/app/de.po`); undefined for any other module. */
export function catalogChunkName(moduleId: string | null): string | undefined {
  const match = moduleId === null ? null : CATALOG_MODULE.exec(moduleId);
  return match ? `${CATALOG_DIR}/${match[1]}-${match[2]}.[hash].js` : undefined;
}

/** The part (`public` or `app`) and language of a catalog file, from its URL or path; undefined for any other file. */
export function catalogFile(url: string): { part: string; language: string } | undefined {
  const [, part, language] = CATALOG_FILE.exec(new URL(url, 'http://x/').pathname) ?? [];
  return part === undefined || language === undefined ? undefined : { part, language };
}

/** The language of a catalog file, from its URL or path; undefined for any other file. */
export const catalogLanguage = (url: string): string | undefined => catalogFile(url)?.language;
