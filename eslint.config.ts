import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer boundaries of docs/architecture.md ("Layers"): web never imports server, server never
 * imports web, shared imports neither and uses no Node or DOM API; features do not import each
 * other. Import cycles (type-only imports included) are found by dpdm in `npm run lint`
 * (package.json), not here: eslint-plugin-import-x's no-cycle skips `import type` edges.
 */
// `regex`, not `group`: in gitignore-style groups a leading `#` starts a comment.
const serverPaths = '^(#server/|(\\.\\./)+server/)';
const webPaths = '^(#web/|(\\.\\./)+web/)';
const featurePath = (name: string) => `^(#web/features/${name}/|(\\.\\./)+${name}/)`;

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
    files: ['web/src/features/auth/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: serverPaths, message: 'web/ must not import server/.' },
        { regex: featurePath('tasks'), message: 'Features do not import each other; compose them in app/.' },
      ] }],
    },
  },
  {
    files: ['web/src/features/tasks/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: serverPaths, message: 'web/ must not import server/.' },
        { regex: featurePath('auth'), message: 'Features do not import each other; compose them in app/.' },
      ] }],
    },
  },
  {
    // Labels are a lower feature that the task screens use (chips, picker, filter) and the app
    // composes into board settings; they use no other feature, so no cycle can form.
    files: ['web/src/features/labels/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: serverPaths, message: 'web/ must not import server/.' },
        { regex: '^(#web/features/(?!labels/)|(\\.\\./){2}(?!\\.\\./))', message: 'The labels feature uses no other feature; compose them in app/.' },
      ] }],
    },
  },
  {
    // Notifications use no other feature: the app joins them to the account page's mail
    // settings (app/notification-settings-host.tsx) and to the live stream (app/live-events.ts).
    files: ['web/src/features/notifications/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: serverPaths, message: 'web/ must not import server/.' },
        { regex: '^(#web/features/(?!notifications/)|(\\.\\./){2}(?!\\.\\./))', message: 'The notifications feature uses no other feature; compose them in app/.' },
      ] }],
    },
  },
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
    // Plain JavaScript that must load on any Node (scripts/check-node.mjs): no TypeScript project.
    files: ['**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
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
