import js from '@eslint/js';
import type { ESLint, Linter } from 'eslint';
import { defineConfig, globalIgnores } from 'eslint/config';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer boundaries of docs/architecture.md ("Layers"): web never imports server, server never
 * imports web, shared imports neither and uses no Node or DOM API; features do not import each
 * other, but for the lower features listed in LOWER_FEATURES below. Import cycles (type-only imports included) are found by dpdm in `npm run lint`
 * (package.json), not here: eslint-plugin-import-x's no-cycle skips `import type` edges.
 */
// `regex`, not `group`: in gitignore-style groups a leading `#` starts a comment.
const serverPaths = '^(#server/|(\\.\\./)+server/)';
const webPaths = '^(#web/|(\\.\\./)+web/)';

/**
 * The web app's features (web/src/features/<name>/). None imports another: what two features
 * share lives in web/src/components or web/src/lib, and the app (web/src/app) composes them,
 * passing one feature's parts to another as props (the session to the account page, the labels
 * section and the webhooks to board settings, the notification settings to the account page).
 */
const FEATURES = ['account', 'admin', 'attachments', 'auth', 'boards', 'checklists', 'comments', 'labels', 'notifications', 'tasks', 'webhooks'] as const;
type Feature = (typeof FEATURES)[number];

/**
 * The allowed exceptions, each a "lower" feature that uses no other feature itself, so no cycle
 * can form: the task screens show labels (chips on a card, the picker in the task panel, the
 * board's label filter, the labels of a conflict), which the labels feature owns with their API.
 */
const LOWER_FEATURES: Partial<Record<Feature, readonly Feature[]>> = { tasks: ['labels'] };

/**
 * An import of another feature than these, by alias or relative path. Every file of a feature
 * is one folder down (features/<name>/<api|components>/file), so `../../` is features/ itself.
 */
const otherFeaturePaths = (allowed: readonly string[]) => {
  const mine = `(${allowed.join('|')})/`;
  return `^(#web/features/(?!${mine})|(\\.\\./){2}(?!\\.\\./|${mine}))`;
};

const featureBoundaries = FEATURES.map((name): Linter.Config => {
  const lower = LOWER_FEATURES[name] ?? [];
  const message = lower.length > 0
    ? `Features do not import each other (${name} may use ${lower.join(', ')}); share through components/ or lib/, or compose them in app/.`
    : 'Features do not import each other; share through components/ or lib/, or compose them in app/.';
  return {
    files: [`web/src/features/${name}/**`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: serverPaths, message: 'web/ must not import server/.' },
        { regex: otherFeaturePaths([name, ...lower]), message },
      ] }],
    },
  };
});

export default defineConfig(
  globalIgnores(['dist/**', 'bench/.tmp/**', 'e2e/.tmp/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'data/**', 'docs/**']),
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.server.json', './tsconfig.web.json', './tsconfig.sw.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['server/**', 'bench/**', 'scripts/**', 'e2e/**', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: webPaths, message: 'server/ must not import web/.' }] }] },
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: globals.browser },
    extends: [reactHooks.configs.flat['recommended-latest']],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: serverPaths, message: 'web/ must not import server/.' }] }],
    },
  },
  {
    // Every text a person reads goes through a message of the catalogs (docs/i18n.md): a text
    // written into JSX or an attribute a person reads fails here. Machine words (class names, keys,
    // codes, URLs, MIME types) are strings without a space that do not start with a capital; SVG
    // path data (`M8 2.5 13 7.5H9.6…`) is numbers and path commands.
    files: ['web/src/**/*.tsx', 'web/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'web/src/testing/**', 'web/src/sw.ts', 'web/src/sw/**'],
    // The plugin's rule types lag ESLint 10's (it works as is).
    plugins: { lingui: lingui as unknown as ESLint.Plugin },
    rules: {
      ...lingui.configs['flat/recommended'].rules,
      'lingui/no-unlocalized-strings': ['error', {
        // …and SVG path data ("M10 2a8 8 0 1 1…").
        ignore: ['^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', '^[A-Z][a-z]+[A-Z]\\w*$', '^[Mm]-?[\\d.]+[\\s,a-z][-\\d.\\s,MmLlHhVvCcSsQqTtAaZz]*$'],
        ignoreNames: [
          { regex: { pattern: 'className|^(key|id|type|role|name|href|to|src|rel|target|method|mode|autoComplete|inputMode|pattern|accept|form|htmlFor|variant|size|tone|kind|as|lang|dir|testId)$', flags: 'i' } },
          { regex: { pattern: '^[A-Z0-9_]+$' } },
          'displayName',
        ],
        ignoreFunctions: ['Error', 'TypeError', 'console.*', 'cx', '*.addEventListener', '*.removeEventListener', '*.getItem', '*.setItem', '*.removeItem', '*.querySelector', '*.querySelectorAll', '*.closest', 'Date', '*.matchMedia', 'matchMedia', 'URL', 'URLSearchParams', '*.set', '*.get', '*.has', '*.append', '*.delete', '*.setRequestHeader', '*.getResponseHeader', '*.getHeader', 'apiRequest', 'import', 'fetch', 'useMediaQuery', 'matchPath'],
        useTsTypes: true,
        ignoreMethodsOnTypes: ['Map.get', 'Map.has', 'Set.has', 'Headers.get', 'URLSearchParams.get'],
      }],
    },
  },
  // After the web/src/** block: a file's last matching block decides its no-restricted-imports.
  ...featureBoundaries,
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: `${serverPaths}|${webPaths}`, message: 'shared/ imports neither server/ nor web/.' },
        { group: ['node:*', 'react', 'react-dom', 'react/*'], message: 'shared/ uses no Node and no DOM APIs.' },
      ] }],
    },
  },
  {
    // Tests may use non-null assertions on values they have just asserted to exist.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', 'server/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Plain JavaScript for Node without a TypeScript project: scripts/check-node.mjs (loads on any
    // Node), e2e/support/lingui-macros.cjs (a Babel plugin Playwright's transform requires).
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain JavaScript served as is to the browser (web/public/theme.js): no TypeScript project.
    files: ['web/public/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.browser },
    // Written for any browser: `catch (error)` with the binding older engines need.
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
);
