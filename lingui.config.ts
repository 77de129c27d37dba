import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';
import { fileURLToPath } from 'node:url';
import { extractor } from './scripts/i18n/extract-texts.ts';
import { publicSourceFiles } from './scripts/i18n/public-sources.ts';
import { LANGUAGES, PSEUDO_LANGUAGE } from './shared/languages.ts';

/**
 * Where the texts people read live, per language, as gettext `.po` catalogs that translation
 * tools read (docs/i18n.md says how to add a language or a message).
 *
 * - `web/src/locales/public/`: what the signed-out screens can show (/login, /sign-up, a page not
 *   found, the app's frame), the only catalog /login downloads. Its files are found by following
 *   imports from the app's entry, stopping at the signed-in part (scripts/i18n/public-sources.ts);
 * - `web/src/locales/app/`: everything else the web app shows, loaded with the signed-in part;
 * - `server/locales/`: mails, pushes, notifications, the calendar feed and the API's messages.
 *
 * `shared/` texts are read by both sides: the server catalog has them all, the web app's two
 * catalogs share them out as they share out the app's own files.
 * `npm run i18n:extract` writes new messages into every catalog; `npm test` fails while a catalog
 * misses one or leaves one untranslated.
 */
const publicSources = publicSourceFiles(fileURLToPath(new URL('.', import.meta.url))).map((file) => `<rootDir>/${file}`);
const tests = ['**/*.test.*', '**/testing/**', '**/node_modules/**'];

export default defineConfig({
  sourceLocale: 'en',
  locales: [...LANGUAGES, PSEUDO_LANGUAGE],
  // Padded with a visible character: spaces would collapse in HTML and lengthen nothing.
  pseudoLocale: { locale: PSEUDO_LANGUAGE, extend: 0.4, extendCharacter: '·' },
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
  // The macros of the web app, and the `text()` / `message()` marks of shared/ and server/.
  extractors: [extractor],
  catalogs: [
    { path: '<rootDir>/web/src/locales/public/{locale}', include: publicSources, exclude: tests },
    { path: '<rootDir>/web/src/locales/app/{locale}', include: ['<rootDir>/web/src', '<rootDir>/shared'], exclude: [...publicSources, ...tests, '**/locales/**'] },
    { path: '<rootDir>/server/locales/{locale}', include: ['<rootDir>/server', '<rootDir>/shared'], exclude: [...tests, '**/test/**', '**/locales/**'] },
  ],
});
