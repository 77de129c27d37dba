import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';
import { extractor } from './scripts/i18n/extract-texts.ts';
import { LANGUAGES, PSEUDO_LANGUAGE } from './shared/languages.ts';

/**
 * Where the texts people read live, per language, as gettext `.po` catalogs that translation
 * tools read (docs/i18n.md says how to add a language or a message).
 *
 * - `web/src/locales/public/`: the signed-out screens and the app's frame, the only catalog
 *   /login downloads;
 * - `web/src/locales/app/`: every signed-in screen, loaded with the signed-in part of the app;
 * - `server/locales/`: mails, pushes, notifications, the calendar feed and the API's messages.
 *
 * `shared/` texts are read by both sides, so they are in the public and the server catalogs.
 * `npm run i18n:extract` writes new messages into every catalog; `npm test` fails while a catalog
 * misses one or leaves one untranslated.
 */
const publicSources = ['<rootDir>/web/src/features/auth', '<rootDir>/web/src/app', '<rootDir>/web/src/components', '<rootDir>/web/src/lib', '<rootDir>/shared'];
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
    { path: '<rootDir>/web/src/locales/app/{locale}', include: ['<rootDir>/web/src/features'], exclude: ['<rootDir>/web/src/features/auth', ...tests] },
    { path: '<rootDir>/server/locales/{locale}', include: ['<rootDir>/server', '<rootDir>/shared'], exclude: [...tests, '**/test/**', '**/locales/**'] },
  ],
});
