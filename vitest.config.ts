import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One set of API test files, run once per database: always SQLite, and PostgreSQL too when
 * TEST_DATABASE_URL is set (CI sets it). The project name shows in the output.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const apiProject = (name: string, databaseUrl: string) => ({
  extends: true as const,
  test: {
    name,
    include: ['server/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['server/test/setup.ts'],
    env: { TEST_DB: databaseUrl },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The files of a worker share one module graph instead of importing the whole server again
    // for each of them (a fifth of the run's time when isolated): 191 s -> 115 s for the SQLite
    // project. Each file still builds its own app, database and clock (server/test/helpers.ts);
    // a file that mocks a module reloads what it mocks (users-login.test.ts).
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a two-core machine. The API
    // tests spend most of their time waiting on the database and sockets (one worker kept a core
    // about half busy), so as many workers as cores, and never fewer than two.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        // shared/ and the scripts' own checks (the catalogs against the sources).
        test: { name: 'shared', include: ['shared/**/*.test.ts', 'scripts/**/*.test.ts'], environment: 'node', testTimeout: 120_000 },
      },
      apiProject('api-sqlite', 'sqlite'),
      ...(postgresUrl ? [apiProject('api-postgres', postgresUrl)] : []),
      {
        extends: true,
        plugins: [react(), lingui({ macroTransform: true })],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/testing/setup.ts'],
          // A hang guard, as for the API tests: findBy/waitFor may each wait up to 5 s.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
